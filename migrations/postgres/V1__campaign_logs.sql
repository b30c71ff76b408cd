-- Campaign logs on PostgreSQL: one database holds many campaigns, each found by its name.
-- Shipped: never edit this file; add V2__… instead. The rows are the SQLite file's rows, column for
-- column, with the campaign they belong to.

CREATE TABLE campaigns (
    id    BIGSERIAL PRIMARY KEY,
    name  TEXT    NOT NULL UNIQUE,
    -- false while `init` or `import` builds it: nobody else sees it until it is whole.
    ready BOOLEAN NOT NULL DEFAULT false,
    -- made by `grimoire tour`, which may replace only such a campaign.
    tour  BOOLEAN NOT NULL DEFAULT false
);

CREATE TABLE events (
    campaign       BIGINT  NOT NULL REFERENCES campaigns (id),
    seq            BIGINT  NOT NULL,
    event_id       TEXT    NOT NULL,
    kind           TEXT    NOT NULL,
    schema_version INTEGER NOT NULL,
    payload        TEXT    NOT NULL,
    game_time      BIGINT  NOT NULL,
    recorded_at    TEXT    NOT NULL,
    session        INTEGER,
    actor          TEXT    NOT NULL,
    prev_hash      TEXT    NOT NULL,
    hash           TEXT    NOT NULL,
    PRIMARY KEY (campaign, seq),
    UNIQUE (campaign, event_id)
);

CREATE INDEX events_by_kind ON events (campaign, kind, seq);

-- Rows are never updated or deleted: a mistake is undone by a `retracted` event. The one exception
-- is a campaign still being built and then abandoned (a refused import), which leaves nothing.
CREATE FUNCTION grimoire_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND NOT (SELECT ready FROM campaigns WHERE id = OLD.campaign) THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'the grimoire log is append-only';
END
$$;

CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION grimoire_append_only();

-- The GM's secrets, apart from the public log, so a players' role can be kept from them (README,
-- "PostgreSQL"): epoch seeds until revealed, sealed dice values.
CREATE TABLE secrets (
    campaign BIGINT NOT NULL REFERENCES campaigns (id),
    kind     TEXT   NOT NULL,
    key      TEXT   NOT NULL,
    value    TEXT   NOT NULL,
    PRIMARY KEY (campaign, kind, key)
);

-- Snapshots of replayed state, only to speed replay up: deleting them all changes no answer.
CREATE TABLE snapshots (
    campaign       BIGINT  NOT NULL REFERENCES campaigns (id),
    seq            BIGINT  NOT NULL,
    code_version   TEXT    NOT NULL,
    schema_version INTEGER NOT NULL,
    head_hash      TEXT    NOT NULL,
    state          TEXT    NOT NULL,
    PRIMARY KEY (campaign, seq)
);
