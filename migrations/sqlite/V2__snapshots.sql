-- Snapshots of replayed state, only to speed replay up: deleting them all changes no answer.
-- A snapshot is used only when it was made by the same state format (code_version), its event still
-- has the hash it had (head_hash), and no later retraction reaches back before it.
CREATE TABLE snapshots (
    seq            INTEGER PRIMARY KEY,
    code_version   TEXT    NOT NULL,
    schema_version INTEGER NOT NULL,
    head_hash      TEXT    NOT NULL,
    state          TEXT    NOT NULL
) STRICT;
