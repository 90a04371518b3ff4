//! Writes the fixtures of `cego` that show each contract played out (fixtures/cego/valid/): one game
//! for each of the declarer's games and special games, the Räuber of a deal all passed, and the
//! corners of the score (a Solo lost, the Bürgermeister's 35, an Ulti won), a Gegensolo (a Cego bid
//! over a Solo); for each Leere game and Kleiner Mann a game whose lead the rule binds (the declarer
//! holds a card it refuses at one of its tricks), with that game's lead replaced by the refused card
//! (fixtures/cego/invalid/play.must.lead.LABEL.json); and Kleiner Mann bid without the Geiß, and its
//! Geiß laid away (fixtures/cego/invalid/); and the Leere games with a court kept in place of an empty
//! card (`courts`); and Kleiner Mann with its Geiß taken back, where the option `geiss_frei` allows it
//! (`frei`); and the Zwei games' first two tricks begun together, the third lead to the higher card
//! or the higher suit, and that play broken (`together`); and the session's end, "Der Gstieß gibt ab",
//! called right after the deal, and refused where the Gstieß lies in the Blinde (`gibt_ab`). And the
//! fixtures of `cego-pagat` that show pagat.com's auction (`pagat`).
//! Each is a seeded simulated game found by search, so it is reproducible:
//!
//!     cargo run -p tarot-engine --example generators -- cego_fixtures

use crate::common;

use common::write;

mod courts;
mod frei;
mod gibt_ab;
pub(crate) mod pagat;
mod together;

use std::collections::BTreeMap;

use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, Event, GameRecord, Registry, Verdict};
use tarot_engine::{ContractChoice, SimOptions};

const ID: &str = "cego";

/// What a fixture shows: its file, the contract it is steered to (`None`: each bid uniform, so that
/// all may pass), what its verdict must show, and its description.
struct Want {
    file: &'static str,
    /// The seed of its search.
    seed: u64,
    contract: Option<&'static str>,
    hold_geiss: bool,
    shows: fn(&Verdict) -> bool,
    what: &'static str,
}

fn value(v: &Verdict, name: &str) -> Option<String> {
    v.outcome.as_ref()?.values.iter().find(|(k, _)| &**k == name).map(|(_, x)| x.to_string())
}

fn contract(v: &Verdict) -> String {
    v.outcome.as_ref().and_then(|o| o.contract.clone()).unwrap_or_default()
}

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("cego is built in");
    let root = common::fixtures().join(ID);
    let wants = [
        Want {
            file: "solo-made",
            seed: 27,
            contract: Some("solo"),
            hold_geiss: false,
            shows: |v| value(v, "made").as_deref() == Some("true"),
            what: "A Solo made: the Blinde counts for the soloist unseen",
        },
        Want {
            file: "solo-lost",
            seed: 28,
            contract: Some("solo"),
            hold_geiss: false,
            shows: |v| value(v, "made").as_deref() == Some("false") && value(v, "burgermeister").as_deref() == Some("false"),
            what: "A Solo lost: the factor is 1 (PB's second example)",
        },
        Want {
            file: "burgermeister",
            seed: 29,
            contract: None,
            hold_geiss: false,
            shows: |v| value(v, "burgermeister").as_deref() == Some("true"),
            what: "The Bürgermeister: the declarer takes 35 exactly and pays 5 to each defender",
        },
        Want { file: "cego", seed: 30, contract: Some("cego"), hold_geiss: false, shows: |_| true, what: "A Cego: nine cards laid away before the Blinde is seen, one after" },
        Want { file: "eine", seed: 31, contract: Some("eine"), hold_geiss: false, shows: |_| true, what: "An Eine: ten cards laid away before the Blinde is seen" },
        Want { file: "eine-leere", seed: 32, contract: Some("eine-leere"), hold_geiss: false, shows: |_| true, what: "An Eine Leere: the card kept is an empty card" },
        Want {
            file: "zwei-leere",
            seed: 33,
            contract: Some("zwei-leere"),
            hold_geiss: false,
            shows: |_| true,
            what: "A Zwei Leere: two empty cards of one suit kept, the lowest trump laid away from the Blinde",
        },
        Want {
            file: "zwei-verschiedene",
            seed: 34,
            contract: Some("zwei-verschiedene"),
            hold_geiss: false,
            shows: |_| true,
            what: "A Zwei Verschiedene: two empty cards of two suits kept, the highest trump laid away from the Blinde",
        },
        Want {
            file: "piccolo-won",
            seed: 35,
            contract: Some("piccolo"),
            hold_geiss: false,
            shows: |v| value(v, "special_won").as_deref() == Some("true"),
            what: "A Piccolo won: the declarer takes exactly one trick",
        },
        Want {
            file: "piccolo-lost",
            seed: 36,
            contract: Some("piccolo"),
            hold_geiss: false,
            shows: |v| v.notes.iter().any(|n| n.contains("play ends after trick")),
            what: "A Piccolo lost: play ends when the declarer takes a second trick",
        },
        Want {
            file: "bettel-lost",
            seed: 37,
            contract: Some("bettel"),
            hold_geiss: false,
            shows: |v| v.notes.iter().any(|n| n.contains("play ends after trick")),
            what: "A Bettel lost: play ends at the declarer's first trick",
        },
        Want {
            file: "ulti-won",
            seed: 38,
            contract: Some("ulti"),
            hold_geiss: true,
            shows: |v| value(v, "special_won").as_deref() == Some("true"),
            what: "An Ulti won: the Geiß, kept to the last trick, takes it",
        },
        Want {
            file: "ulti-lost",
            seed: 39,
            contract: Some("ulti"),
            hold_geiss: true,
            shows: |v| value(v, "special_won").as_deref() == Some("false"),
            what: "An Ulti lost: the Geiß is beaten in the last trick",
        },
        Want {
            file: "rauber",
            seed: 40,
            contract: None,
            hold_geiss: false,
            shows: |v| contract(v) == "rauber",
            what: "A Räuber: all passed; whoever took the most card points pays each other player",
        },
        Want {
            file: "kleiner-mann",
            seed: 44,
            contract: Some("kleiner-mann"),
            hold_geiss: false,
            shows: |_| true,
            what: "A Kleiner Mann: the Geiß kept, ten cards laid away before the Blinde is seen, the Geiß led to the first trick",
        },
        Want {
            file: "gegensolo",
            seed: 45,
            contract: Some("cego"),
            hold_geiss: false,
            shows: |v| value(v, "over_solo").as_deref() == Some("true"),
            what: "A Gegensolo: a Cego bid over a Solo, at factor 2",
        },
    ];
    for want in &wants {
        let sim = SimOptions {
            contract: want.contract.map_or(ContractChoice::Uniform, |c| ContractChoice::Only(c.into())),
            hold_petit: if want.hold_geiss { 1.0 } else { 0.0 },
            ..SimOptions::steered()
        };
        let found =
            common::find_game(rules, 4, &BTreeMap::new(), &sim, (want.seed, 20_000), |rec, v| (want.contract.is_none_or(|c| contract(&v) == c) && (want.shows)(&v)).then_some(rec));
        match found {
            Some((seed, mut rec)) => {
                rec.description = Some(format!("{}: game {seed} of seed {} of `cego_fixtures`", want.what, want.seed));
                write(&root.join("valid").join(format!("{}.json", want.file)), &rec);
            }
            None => eprintln!("{}: not found in 20000 games", want.file),
        }
    }
    // The forced leads: a game whose lead binds, and the same game with the card refused led.
    let leads = [
        ("eine-leere", 41, "An Eine Leere whose first lead is bound: the card kept or one of its suit"),
        ("zwei-leere", 42, "A Zwei Leere whose lead is bound: the cards kept or others of their suit, to the first two tricks"),
        ("zwei-verschiedene", 43, "A Zwei Verschiedene whose lead is bound: the two cards kept, to the first two tricks"),
        ("kleiner-mann", 46, "A Kleiner Mann whose first lead is bound: the Geiß"),
    ];
    for (name, seed0, what) in leads {
        let sim = SimOptions { contract: ContractChoice::Only(name.into()), ..SimOptions::steered() };
        let found = common::find_game(rules, 4, &BTreeMap::new(), &sim, (seed0, 20_000), |rec, v| {
            (contract(&v) == name).then_some(())?;
            bound_lead(rules, &rec).map(|bound| (rec, bound))
        })
        .map(|(seed, (rec, bound))| (seed, rec, bound));
        let Some((seed, mut rec, (at, card, rule))) = found else {
            eprintln!("{name}: no bound lead in 20000 games");
            continue;
        };
        rec.description = Some(format!("{what}: game {seed} of seed {seed0} of `cego_fixtures`"));
        write(&root.join("valid").join(format!("{name}-lead.json")), &rec);
        let Event::Play { player, card: led } = rec.events[at].clone() else { unreachable!("a lead") };
        rec.events[at] = Event::Play { player: player.clone(), card: card.as_str().into() };
        rec.description = Some(format!("{what}: event {at} of game {seed} of seed {seed0} of `cego_fixtures`, where {player} led {led}, replaced by {card}, which he holds"));
        write(&root.join("invalid").join(format!("{rule}.json")), &rec);
    }
    kleiner_mann_broken(rules, &root);
    courts::main(rules, &root);
    frei::main(rules, &root);
    together::main(rules, &root);
    gibt_ab::main(rules, &root);
    pagat::main(&registry);
}

/// Kleiner Mann's bid and Legage broken (P "Normal Games"): in a seeded Kleiner Mann whose first
/// speaker is not its declarer, that speaker bids it without the Geiß; and the declarer lays the Geiß
/// away, keeping another card.
fn kleiner_mann_broken(rules: &Ruleset, root: &std::path::Path) {
    let seed0 = 47;
    let sim = SimOptions { contract: ContractChoice::Only("kleiner-mann".into()), ..SimOptions::steered() };
    let found = common::find_game(rules, 4, &BTreeMap::new(), &sim, (seed0, 20_000), |rec, v| {
        let first = rec.events.iter().position(|e| matches!(e, Event::Bid { .. }))?;
        let Event::Bid { player, .. } = &rec.events[first] else { unreachable!("a bid") };
        (contract(&v) == "kleiner-mann" && v.outcome.as_ref()?.taker.as_deref() != Some(player.as_str())).then_some((rec, first))
    })
    .map(|(seed, (rec, first))| (seed, rec, first));
    let Some((seed, rec, first)) = found else {
        eprintln!("kleiner-mann: no game whose first speaker is a defender in 20000 games");
        return;
    };
    let origin = format!("game {seed} of seed {seed0} of `cego_fixtures`");
    // The bid: the first speaker, who does not hold the Geiß, bids Kleiner Mann.
    let mut bid = rec.clone();
    let Event::Bid { player, bid: said } = rec.events[first].clone() else { unreachable!("a bid") };
    bid.events[first] = Event::Bid { player: player.clone(), bid: "kleiner-mann".into() };
    bid.description = Some(format!("A Kleiner Mann bid by a player without the Geiß: event {first} of {origin}, where {player} said {said}"));
    expect(rules, &bid, "bidding.contract.kleiner-mann.by");
    write(&root.join("invalid").join("bidding.contract.kleiner-mann.by.json"), &bid);
    // The Legage: the Geiß laid away in place of the Legage's first card, which he keeps.
    let mut laid = rec.clone();
    let at = rec.events.iter().position(|e| matches!(e, Event::Discard { .. })).expect("a Legage");
    let Event::Discard { player, cards } = rec.events[at].clone() else { unreachable!("a discard") };
    let mut away = cards.clone();
    let kept = std::mem::replace(&mut away[0], "T1".into());
    laid.events[at] = Event::Discard { player: player.clone(), cards: away };
    laid.description = Some(format!("A Kleiner Mann whose declarer lays the Geiß away and keeps {kept}: event {at} of {origin}"));
    let rule = expect(rules, &laid, "discard.require.");
    write(&root.join("invalid").join(format!("{rule}.json")), &laid);
}

/// The rule a record breaks, which must start with `rule`.
fn expect(rules: &Ruleset, rec: &GameRecord, rule: &str) -> String {
    let v = replay(rules, rec).expect("replayable");
    let broke = v.violation.map(|b| b.rule.to_string()).unwrap_or_default();
    assert!(broke.starts_with(rule), "{rule}: the record breaks {broke:?}");
    broke
}

/// In a game, the first lead of the first two tricks at which the leader holds a card that a `must
/// lead` refuses: the lead's event, the card, and the rule. The leads are the first and fifth cards
/// played, or, where the two tricks are begun together (the Zwei games), the first and second.
fn bound_lead(rules: &Ruleset, rec: &GameRecord) -> Option<(usize, String, String)> {
    let plays: Vec<usize> = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).map(|(i, _)| i).collect();
    for &at in [0, 1, 4].iter().filter_map(|&k| plays.get(k)) {
        let Event::Play { player, .. } = &rec.events[at] else { continue };
        // His hand: the cards he plays from this lead on.
        let hand = rec.events[at..].iter().filter_map(|e| match e {
            Event::Play { player: p, card } if p == player => Some(card.to_string()),
            _ => None,
        });
        for card in hand {
            let mut g = rec.clone();
            g.events.truncate(at);
            g.events.push(Event::Play { player: player.clone(), card: card.as_str().into() });
            let v = replay(rules, &g).expect("replayable");
            if let Some(rule) = v.violation.map(|b| b.rule.to_string()).filter(|r| r.starts_with("play.must.lead.")) {
                return Some((at, card, rule));
            }
        }
    }
    None
}
