-- The archive on PostgreSQL: the same streams, projections and sessions as on sled (see
-- store/src/postgres.rs). Applied once, in a transaction, by PgStore::connect.

-- The last number given out of each counter. Writers move `position` inside their transaction,
-- which locks its row until they commit: positions are given out in commit order, with no gaps.
CREATE TABLE counters (
    name text PRIMARY KEY,
    value bigint NOT NULL
);
INSERT INTO counters (name, value) VALUES ('position', 0), ('games', 0), ('sessions', 0);

-- One row per stream: its header (JSON, as sled stores it) and its version (number of events).
CREATE TABLE games (
    number bigint PRIMARY KEY,
    header text NOT NULL,
    version bigint NOT NULL
);

-- One row per append (a commit, in event-store terms): its events as the append gave them (JSON,
-- `[NewEvent]`), the first one's version and position; the others follow one another. A game's
-- events are its appends in order of version.
CREATE TABLE appends (
    game bigint NOT NULL REFERENCES games (number),
    version bigint NOT NULL,
    position bigint NOT NULL UNIQUE,
    count integer NOT NULL,
    events text NOT NULL,
    PRIMARY KEY (game, version)
);

-- Event ids, scoped to their game, and the version of the event that has each.
CREATE TABLE event_ids (
    game bigint NOT NULL REFERENCES games (number),
    id text NOT NULL,
    version bigint NOT NULL,
    PRIMARY KEY (game, id)
);

-- How a retried creation or import is recognised: a key (header and first event id, or a digest of
-- an imported game) and what the first creation returned (`Appended`, JSON).
CREATE TABLE creations (
    key bytea PRIMARY KEY,
    appended text NOT NULL
);

CREATE TABLE sessions (
    number bigint PRIMARY KEY,
    session text NOT NULL
);

-- Derived data: replay's answer for each game, rebuilt by `tarot-archive rebuild`.
CREATE TABLE projections (
    game bigint PRIMARY KEY REFERENCES games (number),
    ruleset text NOT NULL,
    status text NOT NULL,
    players text[] NOT NULL,
    checkpoint bigint NOT NULL,
    summary text NOT NULL,
    projection text NOT NULL
);
CREATE INDEX projections_ruleset ON projections (ruleset, game);
CREATE INDEX projections_status ON projections (status, game);
CREATE INDEX projections_players ON projections USING gin (players);
