-- No query reads events by session (a session's events are found by their seqs, from the
-- session_started and session_ended rows through events_by_kind), so this index only cost every
-- append and every import its upkeep. Shipped: never edit this file; add V4__… instead.
DROP INDEX IF EXISTS events_by_session;
