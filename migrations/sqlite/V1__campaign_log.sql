-- The campaign log. Shipped: never edit this file; add V2__… instead.

-- One row per event. Rows are never updated or deleted (the triggers below refuse it); a mistake is
-- undone by a `retracted` event. `hash` chains each row to the one before it (see README, "The hash chain").
CREATE TABLE events (
    seq            INTEGER PRIMARY KEY,
    event_id       TEXT    NOT NULL UNIQUE,
    kind           TEXT    NOT NULL,
    schema_version INTEGER NOT NULL,
    payload        TEXT    NOT NULL,
    game_time      INTEGER NOT NULL,
    recorded_at    TEXT    NOT NULL,
    session        INTEGER,
    actor          TEXT    NOT NULL,
    prev_hash      TEXT    NOT NULL,
    hash           TEXT    NOT NULL
) STRICT;

CREATE INDEX events_by_kind ON events (kind, seq);
CREATE INDEX events_by_session ON events (session, seq);

CREATE TRIGGER events_refuse_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'the grimoire log is append-only');
END;

CREATE TRIGGER events_refuse_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'the grimoire log is append-only');
END;

-- The GM's secrets, kept apart from the public log: epoch seeds until revealed, sealed dice values.
-- kind 'epoch_seed': key = epoch number, value = 64 hex digits.
-- kind 'sealed_die': key = 'SEQ:N',      value = JSON {"n", "value", "nonce"}.
CREATE TABLE secrets (
    kind  TEXT NOT NULL,
    key   TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (kind, key)
) STRICT;
