//! The Schmidt leaflet's Cego (`cego-schmidt`, P "Schmidt Version"): each variation, an option, played
//! and broken. Die Pfeif' taken back for any trick (option `geiss_frei` "a-trick"), taking its trick and
//! failing, and the same taking back where the leaflet's rule has the Geiß led; a Solo at the other
//! reading of its factors (`solo_factor` "won-2"); the Solo bidder bidding over his own Solo
//! (`own_solo` "yes"); a court kept in each Leere game by a declarer dealt too few empty cards
//! (`leere_ersatz` "yes"), and the same game bid where only empty cards may be kept; the cards kept led
//! in a Zwei Leere (`leere_lead` "yes"), and each Leere game whose first trick another card leads
//! where they must.
//! Each a seeded simulated game found by search, or one changed from it.

use crate::cego_fixtures::pagat::outcome;
use crate::common::{self, write};

use std::collections::BTreeMap;
use std::path::Path;

use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, Event, GameRecord, Status};
use tarot_engine::{ContractChoice, SimOptions};

const SECTION: &str = "(P \"Schmidt Version\")";

fn options(pairs: &[(&str, &str)]) -> BTreeMap<String, serde_json::Value> {
    pairs.iter().map(|(k, v)| (k.to_string(), serde_json::json!(v))).collect()
}

fn only(c: &str) -> SimOptions {
    SimOptions { contract: ContractChoice::Only(c.into()), hold_petit: 1.0, ..SimOptions::steered() }
}

/// The first card played, and the cards its player kept before the Blinde (dealt him, not laid away
/// in his first discard).
fn first_lead_and_kept(rec: &GameRecord) -> (String, Vec<String>) {
    let lead = rec.events.iter().find_map(|e| if let Event::Play { card, .. } = e { Some(card.to_string()) } else { None }).expect("a card played");
    let player = rec.events.iter().find_map(|e| if let Event::Play { player, .. } = e { Some(player.to_string()) } else { None }).expect("a player");
    let dealt = rec.events.iter().find_map(|e| if let Event::Deal { hands, .. } = e { hands.get(player.as_str()).cloned() } else { None }).unwrap_or_default();
    let laid: Vec<String> =
        rec.events.iter().find_map(|e| if let Event::Discard { cards, .. } = e { Some(cards.iter().map(|c| c.to_string()).collect()) } else { None }).unwrap_or_default();
    (lead, dealt.iter().map(|c| c.to_string()).filter(|c| !laid.contains(c)).collect())
}

fn suit(card: &str) -> Option<char> {
    (!card.starts_with('T') && card != "EX").then(|| card.chars().last().expect("a card"))
}

/// A simulated game under `opts` that `want` accepts, written valid as `file` (what it shows, `what`).
fn found(
    rules: &Ruleset,
    root: &Path,
    (file, what): (&str, &str),
    opts: &[(&str, &str)],
    sim: &SimOptions,
    seed: u64,
    want: impl Fn(&GameRecord, &tarot_engine::Verdict) -> bool,
) -> Option<GameRecord> {
    let o = options(opts);
    let Some((n, mut rec)) = common::find_game(rules, 3, &o, sim, (seed, 20_000), |rec, v| want(&rec, &v).then_some(rec)) else {
        eprintln!("cego-schmidt: {file} not found in 20000 games");
        return None;
    };
    rec.description = Some(format!("{what} {SECTION}: game {n} of seed {seed} of `cego_local_fixtures`"));
    common::write_valid(&root.join("valid").join(format!("{file}.json")), &rec, rules);
    Some(rec)
}

/// `rec` changed (options, description), written invalid as RULE.json (or RULE--WORD.json), the rule
/// the one it breaks, which must start with `rule`.
fn broken(rules: &Ruleset, root: &Path, mut rec: GameRecord, opts: &[(&str, &str)], rule: &str, word: &str, what: String) {
    rec.options = options(opts);
    rec.description = Some(what);
    let v = replay(rules, &rec).expect("replayable");
    let broke = v.violation.map(|b| b.rule.to_string()).unwrap_or_default();
    assert!(broke.starts_with(rule), "cego-schmidt: {rule}: the record breaks {broke:?}");
    let file = if word.is_empty() { broke } else { format!("{broke}--{word}") };
    write(&root.join("invalid").join(format!("{file}.json")), &rec);
}

pub fn write_all(rules: &Ruleset, root: &Path) {
    let frei = [("geiss_frei", "a-trick")];
    let taken_back = |rec: &GameRecord, v: &tarot_engine::Verdict| outcome(v).1 == "kleiner-mann" && first_lead_and_kept(rec).0 != "T1";
    let failed = |v: &tarot_engine::Verdict| v.notes.iter().any(|n| n.contains("the Geiß taken back did not take"));
    let km = only("kleiner-mann");
    let took = found(rules, root, ("kleiner-mann--frei", "Die Pfeif' taken back, a variation: the Geiß takes a trick, not the last"), &frei, &km, 170, |r, v| {
        taken_back(r, v) && !failed(v)
    });
    found(
        rules,
        root,
        ("kleiner-mann--frei-fails", "Die Pfeif' taken back, a variation: the Geiß takes no trick, and the game is paid as one without a trick"),
        &frei,
        &km,
        171,
        |r, v| taken_back(r, v) && failed(v),
    );
    if let Some(rec) = took {
        let what = format!("Die Pfeif' taken back where the leaflet's rule has the Geiß led to the first trick {SECTION}: valid/kleiner-mann--frei.json without its option");
        broken(rules, root, rec, &[], "play.must.lead", "", what);
    }
    found(rules, root, ("solo--won-2", "A Solo at the other reading of the leaflet's factors: 2 won, 1 lost"), &[("solo_factor", "won-2")], &only("solo"), 172, |_, v| {
        outcome(v).1 == "solo"
    });
    // The Solo bidder saying a game over his own Solo: among uniform bids.
    let own = |rec: &GameRecord| {
        let bids: Vec<(String, String)> = rec
            .events
            .iter()
            .filter_map(|e| if let Event::Bid { player, bid } = e { Some((player.to_string(), bid.to_string())) } else { None })
            .filter(|(_, b)| b != "pass")
            .collect();
        bids.iter().position(|(_, b)| b == "solo").is_some_and(|k| bids[k + 1..].iter().any(|(p, _)| *p == bids[k].0))
    };
    found(
        rules,
        root,
        ("own-solo", "Bidding over one's own Solo, a variation: the Solo bidder says a game in the second phase"),
        &[("own_solo", "yes")],
        &SimOptions::default(),
        173,
        |r, _| own(r),
    );
    // A court kept in Eine Leere by a declarer dealt no empty card.
    let pips = |c: &str| c.chars().next().is_some_and(|x| x.is_ascii_digit());
    let court_kept = |rec: &GameRecord, v: &tarot_engine::Verdict| {
        let (_, kept) = first_lead_and_kept(rec);
        outcome(v).1 == "eine-leere" && !kept.is_empty() && kept.iter().all(|c| !pips(c) && suit(c).is_some())
    };
    let ersatz = found(
        rules,
        root,
        ("eine-leere--ersatz", "Other cards for empty ones, a variation: a declarer dealt no empty card keeps a court in Eine Leere"),
        &[("leere_ersatz", "yes")],
        &only("eine-leere"),
        174,
        court_kept,
    );
    if let Some(rec) = ersatz {
        let what =
            format!("Eine Leere bid by a player dealt no empty card, where the leaflet's rule asks for empty cards {SECTION}: valid/eine-leere--ersatz.json without its option");
        broken(rules, root, rec, &[], "bidding.contract.eine-leere.by", "", what);
    }
    // The cards kept led: a Zwei Leere's two begun together; an Eine Leere led with another suit.
    let lead = [("leere_lead", "yes")];
    let together = found(
        rules,
        root,
        ("zwei-leere--lead", "The cards kept led, a variation: a Zwei Leere's two begin the first two tricks together"),
        &lead,
        &only("zwei-leere"),
        175,
        |_, v| outcome(v).1 == "zwei-leere",
    );
    if let Some(rec) = together {
        let what = format!("A Zwei Leere's first two tricks begun together, where the leaflet's rule has them played one after the other {SECTION}: valid/zwei-leere--lead.json without its option");
        broken(rules, root, rec, &[], "play.order", "lead-together", what);
    }
    let other_suit = |rec: &GameRecord, v: &tarot_engine::Verdict| {
        let (lead, kept) = first_lead_and_kept(rec);
        outcome(v).1 == "eine-leere" && kept.iter().all(|k| suit(k) != suit(&lead))
    };
    let o = BTreeMap::new();
    if let Some((n, rec)) = common::find_game(rules, 3, &o, &only("eine-leere"), (176, 20_000), |rec, v| other_suit(&rec, &v).then_some(rec)) {
        assert_eq!(replay(rules, &rec).expect("replayable").status, Status::Valid);
        let what = format!("An Eine Leere whose first trick another suit leads than the empty card kept, where the cards kept must lead {SECTION}: game {n} of seed 176 of `cego_local_fixtures`, with the option");
        broken(rules, root, rec, &lead, "play.must.lead", "", what);
    } else {
        eprintln!("cego-schmidt: an Eine Leere led with another suit not found in 20000 games");
    }
    // The Zwei games alike: a court kept where others may stand in, and the same bid under the
    // leaflet's rule; a first trick led with another card than the cards kept (Zwei Verschiedene) or
    // their suit (Zwei Leere), where they must lead.
    for (c, seed, name) in [("zwei-leere", 177, "Zwei Leere"), ("zwei-verschiedene", 179, "Zwei Verschiedene")] {
        let with_court = |rec: &GameRecord, v: &tarot_engine::Verdict| {
            let (_, kept) = first_lead_and_kept(rec);
            outcome(v).1 == c && kept.iter().any(|k| !pips(k) && suit(k).is_some())
        };
        let file = format!("{c}--ersatz");
        let what = format!("Other cards for empty ones, a variation: a declarer dealt too few empty cards keeps a court in {name}");
        if let Some(rec) = found(rules, root, (&file, &what), &[("leere_ersatz", "yes")], &only(c), seed, with_court) {
            let what = format!("{name} bid by a player dealt too few empty cards, where the leaflet's rule asks for empty cards {SECTION}: valid/{file}.json without its option");
            broken(rules, root, rec, &[], &format!("bidding.contract.{c}.by"), "", what);
        }
        let not_kept = |rec: &GameRecord, v: &tarot_engine::Verdict| {
            let (lead, kept) = first_lead_and_kept(rec);
            let off = if c == "zwei-leere" { kept.iter().all(|k| suit(k) != suit(&lead)) } else { !kept.contains(&lead) };
            outcome(v).1 == c && off
        };
        if let Some((n, rec)) = common::find_game(rules, 3, &o, &only(c), (seed + 1, 20_000), |rec, v| not_kept(&rec, &v).then_some(rec)) {
            let what = format!(
                "A {name} whose first trick another card leads than the cards kept, where they must lead {SECTION}: game {n} of seed {} of `cego_local_fixtures`, with the option",
                seed + 1
            );
            broken(rules, root, rec, &lead, "play.", "", what);
        } else {
            eprintln!("cego-schmidt: a {name} led with another card not found in 20000 games");
        }
    }
}
