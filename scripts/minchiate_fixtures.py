#!/usr/bin/env python3
"""Writes the Minchiate games arranged by hand: Minucci's worked example of a versicola of trumps
32-35 (M3) shown whole, broken and saved (fixtures/worked/minchiate-versicola-*.json), and a game with
three kings shown and the Matto (fixtures/minchiate/valid/kings-and-matto.json), and the stealing from
the stock (M4): a valid game where the cutter and the dealer steal (fixtures/minchiate/valid/steals.json)
two invalid ones (fixtures/minchiate/invalid/steal.cards.json, steal.dealer.json) and one in progress
(fixtures/minchiate/in_progress/steal-pending.json). Where a deal is not about stealing, its
stock begins with a card that may not be stolen, so nobody steals.

Each deal is written out here; the play is chosen move by move among the legal cards that
`tarot-archive validate` reports for the game so far (the moves that matter by the policy below, the
others at random with a fixed seed), so every record is a complete legal game.

    cargo build -p tarot-archive && python3 scripts/minchiate_fixtures.py
"""
import json, os, random, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "target/debug/tarot-archive")
RULES = os.path.join(ROOT, "rulesets")
SUITS = "SHDC"
RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"]
PACK = [f"T{i}" for i in range(1, 41)] + ["EX"] + [r + s for s in SUITS for r in RANKS]


def verdict(rec):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(rec, f)
    out = subprocess.run([CLI, "--rules-dir", RULES, "validate", f.name], capture_output=True, text=True)
    os.unlink(f.name)
    if not out.stdout:
        sys.exit(out.stderr)
    return json.loads(out.stdout)["verdict"]


def play_out(rec, policy):
    trick = []
    while True:
        v = verdict(rec)
        if v["status"] != "in_progress":
            assert v["status"] == "valid", v
            return rec
        nxt = v["next"]
        if nxt["phase"] == "take":
            rec["events"].append({"type": "take", "player": nxt["player"], "cards": nxt["packets"][-1]})
            continue
        card = policy(nxt["player"], nxt["legal"], trick)
        rec["events"].append({"type": "play", "player": nxt["player"], "card": card})
        trick = [] if len(trick) + 1 == len(rec["players"]) else trick + [card]


def deal(fixed, stock, seed):
    """The hands of Ann, Bob, Cid and Dan (21 each): the cards in `fixed`, the rest shuffled."""
    taken = set(stock).union(*map(set, fixed.values()))
    rest = [c for c in PACK if c not in taken]
    random.Random(seed).shuffle(rest)
    hands = {}
    for p in ["Ann", "Bob", "Cid", "Dan"]:
        need = 21 - len(fixed.get(p, []))
        hands[p] = fixed.get(p, []) + rest[:need]
        rest = rest[need:]
    assert not rest and len(set(sum(hands.values(), []) + stock)) == 97
    return {"type": "deal", "hands": hands, "dog": stock}


def write(rec, path):
    with open(os.path.join(ROOT, path), "w") as f:
        json.dump(rec, f, indent=2)
        f.write("\n")


# M3: "trumps 32, 33, 34, 35 shown; if the 33 or 34 is taken the versicola is broken and the rest count
# twice; if the 32 or 35 is taken, three remain in sequence and count three times". Ann shows them; the
# Star, Moon, Sun and World lie in the stock, so Bob's Trumpets, led to the first trick, are the only
# trump above them in play; Ann plays under it the 7 (whole), the 33 (broken) or the 35 (saved).
SHOWN = ["T32", "T33", "T34", "T35"]
for name, under, figure in [("whole", "T7", "4 x 5 x 3 = 60"), ("broken", "T33", "3 x 5 x 2 = 30"), ("saved", "T35", "3 x 5 x 3 = 45")]:
    ann = SHOWN + ["T7", "T9", "T11", "T15", "KS", "QH", "JH"] + [f"{i}H" for i in range(1, 11)]
    stock = ["CH", "T36", "T37", "T38", "T39", "KH"] + [f"{i}D" for i in range(1, 8)]
    rec = {
        "ruleset": "minchiate",
        "players": ["Ann", "Bob", "Cid", "Dan"],
        "dealer": "Ann",
        "description": f"Minucci's worked example (M3, https://abruzzoinmostra.it/letteratura/lippi_01/il-malmantile-riacquistato-di-lorenzo-lippi-pagt0263.htm): Ann shows trumps 32 to 35 and plays the {under[1:]} under Bob's Trumpets in the first trick, so the versicola counts {figure} (its cards once among the nobili, the rest as bonus); Dan takes no noble card, so Dan pays Ann her whole honours. Dealt and played by scripts/minchiate_fixtures.py.",
        "events": [deal({"Ann": ann, "Bob": ["T40"]}, stock, 1688),
                   {"type": "declare", "player": "Ann", "declaration": "versicola", "cards": SHOWN}],
    }
    moves = random.Random(7)

    def policy(player, legal, trick):
        if player == "Bob" and not trick and "T40" in legal:
            return "T40"
        if player == "Ann":
            if "T40" in trick and under in legal:
                return under
            plain = [c for c in legal if c not in SHOWN]
            return plain[0] if plain else legal[0]
        return moves.choice([c for c in legal if c != "T40"] or legal)

    write(play_out(rec, policy), f"fixtures/worked/minchiate-versicola-{name}.json")

# Three kings shown (M2) and the Matto with them (M3).
cid = ["KS", "KC", "KD", "EX", "T1", "T2", "T4"]
rec = {
    "ruleset": "minchiate",
    "players": ["Ann", "Bob", "Cid", "Dan"],
    "dealer": "Ann",
    "description": "Cid shows three kings (M2), leads them and takes all three, and keeps the Matto (exchanged for a cartaccia): his honours are his 28 card points, twice more the kings' 15 (counted three times, M3) and twice more the Matto's 5 (three times with the one versicola, M3), 68 in all. Dealt and played by scripts/minchiate_fixtures.py.",
    "events": [deal({"Cid": cid}, ["CH"] + [f"T{i}" for i in range(21, 28)] + ["KH", "1D", "2D", "3D", "4D"], 97),
               {"type": "declare", "player": "Cid", "declaration": "versicola", "cards": ["KS", "KC", "KD"]}],
}
moves = random.Random(3)


def kings_first(player, legal, trick):
    if player == "Cid":
        kings = [c for c in legal if c.startswith("K")]
        if kings:
            return kings[0]
    return moves.choice(legal)


write(play_out(rec, kings_first), "fixtures/minchiate/valid/kings-and-matto.json")

# The Matto's player takes no card (M2): Dan holds the Matto, the numerals of swords (a long suit, so
# every sword led is a court above them) and of cups (a round suit: the courts are above them too) and
# no trump, so he never takes a trick, and the Matto goes to the taker of the trick it was played to.
dan = ["EX"] + [f"{i}S" for i in range(1, 11)] + [f"{i}H" for i in range(1, 11)]
rec = {
    "ruleset": "minchiate",
    "players": ["Ann", "Bob", "Cid", "Dan"],
    "dealer": "Ann",
    "description": "The Matto's player takes no card (M2: he must then give the Matto itself): Dan holds the Matto and only numerals of swords and cups, which every card led beats, plays the Matto to the first trick and takes no trick, so the Matto goes to that trick's taker. Dealt and played by scripts/minchiate_fixtures.py.",
    "events": [deal({"Dan": dan}, ["1D"] + [f"T{i}" for i in range(21, 28)] + ["CH", "KH", "2D", "3D", "4D"], 1)],
}
moves = random.Random(5)


def matto_first(player, legal, trick):
    if player == "Dan" and "EX" in legal:
        return "EX"
    return moves.choice(legal)


write(play_out(rec, matto_first), "fixtures/minchiate/valid/matto-shut-out.json")

# Stealing (M4, M1 st. 61). Ann deals; Dan, on her left (the player before her in the order of play),
# cut and took the 25 and the King of swords from the bottom of his cut: the record lists them at the
# head of the stock. Ann then takes the Star and the 22, which follow, and stops at the 3 of coins. Each
# lays away two cartacce, which go to the stock.
STOCK = ["T25", "KS", "T36", "T22", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD"]
STEALS = [
    {"type": "take", "player": "Dan", "cards": ["T25", "KS"]},
    {"type": "discard", "player": "Dan", "cards": ["2S", "3S"]},
    {"type": "take", "player": "Ann", "cards": ["T36", "T22"]},
    {"type": "discard", "player": "Ann", "cards": ["4S", "5S"]},
]


def steal_deal():
    return deal({"Dan": ["2S", "3S"], "Ann": ["4S", "5S"]}, STOCK, 61)


rec = {
    "ruleset": "minchiate",
    "players": ["Ann", "Bob", "Cid", "Dan"],
    "dealer": "Ann",
    "description": "Stealing (M4: the cutter takes noble cards and trumps 21 to 27 from the bottom of his cut, the dealer from the stock while they come; M1 st. 61 \"quando ruba, scarta\"): Dan, who cut, took the 25 and the King of swords, listed at the head of the stock; Ann, the dealer, takes the Star and the 22 that follow and stops at the 3 of coins; each lays away two cartacce. Dealt and played by scripts/minchiate_fixtures.py.",
    "events": [steal_deal()] + STEALS,
}
moves = random.Random(61)
write(play_out(rec, lambda player, legal, trick: moves.choice(legal)), "fixtures/minchiate/valid/steals.json")

for rule, events, what in [
    ("steal.cards", [{"type": "take", "player": "Dan", "cards": ["T25", "KS", "T36", "T22", "3D"]}],
     "Dan, the cutter, takes the stock's head down to the 3 of coins, a cartaccia, which may not be stolen (M4)"),
    ("steal.dealer", STEALS[:2] + [{"type": "take", "player": "Ann", "cards": ["T36"]}],
     "Ann, the dealer, takes the Star and stops, leaving the 22, which comes next and may be stolen: she takes them while they come (M4)"),
    # invalid/steal.json (a discard of the wrong size) comes from `make_fixtures only minchiate`.
]:
    rec = {
        "ruleset": "minchiate",
        "players": ["Ann", "Bob", "Cid", "Dan"],
        "dealer": "Ann",
        "description": what + ". Written by scripts/minchiate_fixtures.py.",
        "events": [steal_deal()] + events,
    }
    v = verdict(rec)
    assert v["status"] == "invalid" and v["violation"]["rule"] == rule, v
    write(rec, f"fixtures/minchiate/invalid/{rule}.json")

# After the deal, before the steals: the next move is the cutter's take, and the takes offered (`next`'s
# `packets`) are the runs of the stock's head that he may steal.
rec = {
    "ruleset": "minchiate",
    "players": ["Ann", "Bob", "Cid", "Dan"],
    "dealer": "Ann",
    "description": "The deal of steals.json, before anyone steals: Dan, the cutter, may take the 25, the 25 and the King of swords, and so on down to the 22 (M4). Written by scripts/minchiate_fixtures.py.",
    "events": [steal_deal()],
}
v = verdict(rec)
assert v["status"] == "in_progress" and v["next"]["phase"] == "take" and v["next"]["player"] == "Dan", v
assert v["next"]["packets"] == [["T25"], ["T25", "KS"], ["T25", "KS", "T36"], ["T25", "KS", "T36", "T22"]] and v["next"]["legal"] == [], v
write(rec, "fixtures/minchiate/in_progress/steal-pending.json")
