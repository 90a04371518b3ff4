"""A client's workflow against the archive, through the Python client that openapi-python-client
generates from the served OpenAPI document (scripts/python_client.sh generates it and runs this):
typed calls and typed answers only, each step checked.

    python scripts/python_client_workflow.py BASE_URL

validate a fixture; store a game made of its deal alone, then append its moves one at a time, each
among what the game's `next` offers; read the game back (valid, the fixture's scores); list the
games; compare two rulesets; a ruleset's options (each a word or a number); deal statistics; a
session with the game; a bulk import of two records (NDJSON), each line of the answer read as an
`ImportLine`. Any failure exits non-zero.
"""

import io
import json
import sys
import typing
from pathlib import Path

from tarot_rules_archive_client import Client
from tarot_rules_archive_client.api.games import append, create_game, game, import_games, list_games, validate
from tarot_rules_archive_client.api.rulesets import compare, ruleset, stats
from tarot_rules_archive_client.api.sessions import add_to_session, create_session, session
from tarot_rules_archive_client.models import (
    AddGame,
    Append,
    BidEvent,
    CallEvent,
    Comparison,
    DealStats,
    DeclareEvent,
    DiscardEvent,
    GamePage,
    GameRecord,
    GameView,
    ImportedLine,
    ImportFailure,
    NewSession,
    Next,
    Phase,
    PlayEvent,
    Problem,
    RefusedLine,
    RulesetDetail,
    ScoreSheet,
    SessionCreated,
    Status,
    StatusFilter,
    StoredGame,
    Verdict,
)
from tarot_rules_archive_client.types import File

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = "fixtures/fft-4p/valid/4p-1.json"
IMPORTED = ["fixtures/fft-4p/valid/4p-2.json", "fixtures/marolles-1637/valid/3p-1.json"]


def check(condition: bool, what: str) -> None:
    if not condition:
        raise AssertionError(what)


def answer(value, kind, step: str):
    """The typed answer of a step: of `kind`, not a problem."""
    check(isinstance(value, kind), f"{step}: expected a {kind.__name__}, got {value!r}")
    return value


def offered(next_: Next, event) -> bool:
    """Whether the verdict's `next` offers this event: the player to move and a legal move, or an open
    declaration."""
    if isinstance(event, DeclareEvent):
        return any(d.player == event.player and d.declaration == event.declaration for d in next_.declarations or [])
    if event.player != next_.player:
        return False
    legal = {m.upper() for m in next_.legal}
    if isinstance(event, BidEvent):
        return next_.phase == Phase.BID and event.bid.upper() in legal
    if isinstance(event, CallEvent):
        return next_.phase == Phase.CALL and event.card.upper() in legal
    if isinstance(event, PlayEvent):
        return next_.phase == Phase.PLAY and event.card.upper() in legal
    if isinstance(event, DiscardEvent):
        return next_.phase == Phase.DISCARD and len(event.cards) == next_.count and all(c.upper() in legal for c in event.cards)
    raise AssertionError(f"no check for an event of type {type(event).__name__}")


def scores(verdict: Verdict) -> dict:
    check(verdict.outcome is not None, f"a finished game has an outcome: {verdict!r}")
    return {p.player: p.score for p in verdict.outcome.players}


def import_line(data: dict):
    """A line of an import's answer as the `ImportLine` it is: stored, refused, or a failure."""
    for kind in (ImportedLine, RefusedLine, ImportFailure):
        try:
            return kind.from_dict(data)
        except (KeyError, TypeError, ValueError):
            continue
    raise AssertionError(f"not an ImportLine: {data}")


def main(base: str) -> None:
    # No token: the server has none, and every write takes a plain client.
    for write in (create_game, append, create_session, add_to_session, import_games):
        hint = typing.get_type_hints(write.sync)["client"]
        check(Client in typing.get_args(hint), f"{write.__name__} demands {hint}")
    client = Client(base_url=base, raise_on_unexpected_status=True, timeout=60.0)

    fixture = json.loads((ROOT / FIXTURE).read_text())
    record = GameRecord.from_dict(fixture)

    # Validate the whole record.
    verdict = answer(validate.sync(client=client, body=record), Verdict, "validate")
    check(verdict.status == Status.VALID, f"validate: {verdict.status}")
    expected = scores(verdict)
    print(f"validate: {FIXTURE} is valid, scores {expected}")

    # A ruleset id is a string: one the server does not know is the server's to refuse (422), not the
    # client's.
    unknown = GameRecord.from_dict({**fixture, "ruleset": "a-ruleset-of-another-server"})
    problem = answer(validate.sync(client=client, body=unknown), Problem, "validate an unknown ruleset")
    check(problem.status == 422, f"an unknown ruleset: {problem.status}")

    # Store the deal alone, then append the moves one at a time.
    deal_only = GameRecord(ruleset=record.ruleset, players=record.players, dealer=record.dealer, events=record.events[:1])
    stored = answer(create_game.sync(client=client, body=deal_only), StoredGame, "store the deal")
    check(stored.version == 1 and stored.verdict.status == Status.IN_PROGRESS, f"store the deal: {stored.version} {stored.verdict.status}")
    game_id = stored.id
    for n, event in enumerate(record.events[1:], start=1):
        next_ = stored.verdict.next_
        check(isinstance(next_, Next), f"move {n}: the game in progress says what comes next")
        check(offered(next_, event), f"move {n}: {event.to_dict()} is not among what `next` offers: {next_.to_dict()}")
        stored = answer(append.sync(game_id, client=client, body=Append(expected_version=stored.version, events=[event])), StoredGame, f"append move {n}")
        check(stored.version == n + 1, f"append move {n}: version {stored.version}")
    print(f"store and append: {game_id}, {stored.version} events, each offered by `next`")

    # Read it back.
    view = answer(game.sync(game_id, client=client), GameView, "read the game")
    check(view.verdict.status == Status.VALID, f"read the game: {view.verdict.status}")
    check(scores(view.verdict) == expected, f"read the game: scores {scores(view.verdict)}, the fixture's {expected}")
    check(view.version == len(record.events), f"read the game: version {view.version}")
    print(f"read back: valid, scores {scores(view.verdict)}")

    # List the games.
    page = answer(list_games.sync(client=client, ruleset="fft-4p", status=StatusFilter.VALID), GamePage, "list the games")
    check(page.total == 1 and [g.game for g in page.games] == [game_id], f"list the games: {page.to_dict()}")
    check(page.games[0].status == Status.VALID, f"list the games: {page.games[0].status}")
    print(f"list: {page.total} game")

    # Compare two rulesets.
    rulesets = ["fft-4p", "marolles-1637"]
    comparison = answer(compare.sync(client=client, ids=rulesets), Comparison, "compare two rulesets")
    check(comparison.rulesets == rulesets, f"compare: {comparison.rulesets}")
    check(comparison.rows and all(len(row.cells) == 2 for row in comparison.rows), "compare: a cell per ruleset in each row")
    check(any(row.differs for row in comparison.rows), "compare: the two rulesets differ somewhere")
    print(f"compare: {len(comparison.rows)} aspects, {sum(r.differs for r in comparison.rows)} differ")

    # A ruleset's options, typed: each value, default and choice a word or a number.
    detail = answer(ruleset.sync("cego-pflicht-rauber", client=client), RulesetDetail, "read a ruleset")
    option = next(o for o in detail.rules.options if o.name == "round")
    values = [option.value, option.default, *option.choices]
    check(all(isinstance(v, (str, float, int)) for v in values) and option.default in option.choices, f"an option: {option.to_dict()}")
    print(f"ruleset: {detail.rules.id}, option {option.name} = {option.value}, one of {option.choices}")

    # Deal statistics.
    dealt = answer(stats.sync(client=client, rulesets=["fft-4p"], deals=200, seed=1), list, "statistics")
    check(all(isinstance(d, DealStats) for d in dealt), f"statistics: {dealt!r}")
    check(len(dealt) == 1 and dealt[0].ruleset == "fft-4p" and dealt[0].deals == 200 and dealt[0].seed == 1, f"statistics: {[d.to_dict() for d in dealt]}")
    print(f"statistics: {dealt[0].deals} deals of {dealt[0].ruleset}")

    # A session: the game as its first deal.
    created = answer(create_session.sync(client=client, body=NewSession(name="Table one", players=record.players)), SessionCreated, "open a session")
    sheet = answer(add_to_session.sync(created.id, client=client, body=AddGame(game=game_id)), ScoreSheet, "add the game to the session")
    check([d.game for d in sheet.deals] == [game_id] and sheet.deals[0].status == Status.VALID, f"the session: {sheet.to_dict()}")
    check({p: a for p, a in sheet.totals} == expected, f"the session's totals: {sheet.totals}")
    again = answer(session.sync(created.id, client=client), ScoreSheet, "read the session")
    check(again.totals == sheet.totals, "the session reads back the same")
    print(f"session: {created.id}, totals {sheet.totals}")

    # Bulk import: two records, one per line.
    lines = [json.dumps(json.loads((ROOT / f).read_text())) for f in IMPORTED]
    body = File(payload=io.BytesIO(("\n".join(lines) + "\n").encode()), mime_type="application/x-ndjson")
    answered = answer(import_games.sync(client=client, body=body), File, "import")
    reported = [import_line(json.loads(line)) for line in answered.payload.read().decode().splitlines()]
    check(len(reported) == 2, f"import: {len(reported)} lines")
    for n, line in enumerate(reported, start=1):
        check(isinstance(line, ImportedLine), f"import, line {n}: {line!r}")
        check(line.line == n and line.new and line.status == Status.VALID, f"import, line {n}: {line.to_dict()}")
    total = answer(list_games.sync(client=client), GamePage, "list after the import").total
    check(total == 3, f"after the import: {total} games")
    print(f"import: {[line.id for line in reported]}, {total} games in all")

    print("the generated client's workflow passed")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} BASE_URL")
    main(sys.argv[1])
