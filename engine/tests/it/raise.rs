//! The auction winner's last word with a taker (`raise`), on the test rule file
//! `tests/rules/auction-raise.tarot`: the FFT game where forehand, having won with a prise, may name a
//! garde sans or a garde contre at his last word and play it as taker. Königrufen's forehand raises
//! his "Vorhand" the same way (`rulesets/koenigrufen.tarot`, HK 3.3).

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use tarot_engine::ir::Ruleset;
use tarot_engine::{random_game, random_game_with, ContractChoice, SimOptions};
use tarot_engine::{replay, Event, GameRecord, Phase, Registry, Status, Verdict};

const ID: &str = "auction-raise";

fn rules() -> Ruleset {
    common::test_rules(ID, None).unwrap_or_else(|d| panic!("{d}"))
}

/// A seeded random game's deal, with no bid yet.
fn deal(rules: &Ruleset, seed: u64) -> GameRecord {
    let mut g = random_game(rules, 4, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
    g.events.truncate(1);
    g
}

/// The bids said in turn, each by whoever the verdict says speaks next: the record.
fn said(rules: &Ruleset, mut g: GameRecord, bids: &[&str]) -> GameRecord {
    for bid in bids {
        let v = replay(rules, &g).unwrap();
        let next = v.next.unwrap_or_else(|| panic!("nobody to say {bid}: {:?} {:?}", v.status, v.violation));
        g.events.push(Event::Bid { player: next.player.as_ref().into(), bid: (*bid).into() });
    }
    g
}

fn say(rules: &Ruleset, g: GameRecord, bids: &[&str]) -> Verdict {
    replay(rules, &said(rules, g, bids)).unwrap()
}

fn broken(v: &Verdict) -> (String, String) {
    assert_eq!(v.status, Status::Invalid, "{:?}", v.next);
    let x = v.violation.as_ref().unwrap();
    (x.rule.to_string(), x.message.to_string())
}

fn next(v: &Verdict) -> (String, Phase, Vec<String>) {
    let n = v.next.as_ref().unwrap_or_else(|| panic!("{:?} {:?}", v.status, v.violation));
    (n.player.to_string(), n.phase, n.legal.clone())
}

const WON: [&str; 4] = ["prise", "pass", "pass", "pass"];

#[test]
fn forehand_having_won_with_a_prise_names_it_again_or_a_garde_sans_or_a_garde_contre() {
    let r = rules();
    let g = deal(&r, 1);
    let (forehand, _, legal) = next(&say(&r, g.clone(), &[]));
    // The contracts raised to are bid in the auction as usual.
    assert_eq!(legal, ["pass", "prise", "garde", "garde-sans", "garde-contre"]);
    let v = say(&r, g.clone(), &WON);
    assert_eq!(next(&v), (forehand.clone(), Phase::Bid, vec!["prise".into(), "garde-sans".into(), "garde-contre".into()]));
    // The prise: the dog is shown and the taker discards.
    assert_eq!(next(&say(&r, g.clone(), &[&WON[..], &["prise"]].concat())).1, Phase::Discard);
    // A garde contre: he is its taker, the dog goes to the defence, play begins.
    let v = say(&r, g.clone(), &[&WON[..], &["garde-contre"]].concat());
    assert_eq!(next(&v).1, Phase::Play);
    assert!(v.notes.iter().any(|n| n.contains(&format!("{forehand} won with prise and raised it to garde contre le chien (bidding.raise.prise)"))), "{:?}", v.notes);
    // A garde is not his to name, nor is a pass.
    let (rule, message) = broken(&say(&r, g.clone(), &[&WON[..], &["garde"]].concat()));
    assert_eq!(rule, "bidding.raise.prise");
    assert_eq!(message, format!("{forehand} won the auction with prise and now says prise or garde-sans or garde-contre, not garde"));
    assert_eq!(broken(&say(&r, g.clone(), &[&WON[..], &["pass"]].concat())).0, "bidding.raise.prise");
    // Another player speaking then.
    let second = next(&say(&r, g.clone(), &["prise"])).0;
    let mut rec = said(&r, g.clone(), &WON);
    rec.events.push(Event::Bid { player: second.as_str().into(), bid: "garde-contre".into() });
    let (rule, message) = broken(&replay(&r, &rec).unwrap());
    assert_eq!(rule, "bidding.raise.prise");
    assert_eq!(message, format!("{forehand} won the auction with prise and says first what he plays (prise or garde-sans or garde-contre): {second} may not say garde-contre now"));
    // His last word missing: a card played before it.
    let mut rec = said(&r, g.clone(), &WON);
    let Event::Deal { hands, .. } = &rec.events[0] else { unreachable!() };
    let card = hands[forehand.as_str()][0].clone();
    rec.events.push(Event::Play { player: forehand.as_str().into(), card });
    let (rule, message) = broken(&replay(&r, &rec).unwrap());
    assert_eq!(rule, "bidding.raise.prise");
    assert!(message.starts_with("the last word is missing"), "{message}");
    // Another player winning with a prise has no last word; nor has forehand winning with a garde.
    assert_eq!(next(&say(&r, g.clone(), &["pass", "prise", "pass", "pass"])).1, Phase::Discard);
    assert_eq!(next(&say(&r, g.clone(), &["garde", "pass", "pass", "pass"])).1, Phase::Discard);
}

/// A whole game in which forehand raised his prise to a garde contre at his last word: the simulator
/// steered to the garde contre through the last word.
fn raised_game(r: &Ruleset) -> GameRecord {
    let sim = SimOptions { contract: ContractChoice::Only("garde-contre".into()), last_word: 1.0, ..SimOptions::steered() };
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..200 {
        let g = random_game_with(r, 4, &BTreeMap::new(), &sim, &mut rng).unwrap();
        let bids: Vec<String> = g.events.iter().filter_map(|e| if let Event::Bid { bid, .. } = e { Some(bid.to_string()) } else { None }).collect();
        if bids == ["prise", "pass", "pass", "pass", "garde-contre"] {
            return g;
        }
    }
    panic!("no game raised to a garde contre in 200")
}

/// The same game, accepted with `raise` and refused without it: without it the bidding is over once
/// the three others have passed, and forehand's last word is one bid too many.
#[test]
fn a_game_raised_at_the_last_word_is_valid_with_raise_and_refused_without_it() {
    let r = rules();
    let g = raised_game(&r);
    let v = replay(&r, &g).unwrap();
    assert_eq!(v.status, Status::Valid, "{:?}", v.violation);
    let o = v.outcome.as_ref().unwrap();
    assert_eq!(o.contract.as_deref(), Some("garde-contre"));
    assert_eq!(o.taker.as_deref(), Some(g.events.iter().find_map(|e| if let Event::Bid { player, .. } = e { Some(player.as_ref()) } else { None }).unwrap()));
    let builtin = Registry::builtin().unwrap();
    let fft = builtin.get("fft-4p").unwrap();
    let mut plain = g.clone();
    plain.ruleset = "fft-4p".into();
    let (rule, message) = broken(&replay(fft, &plain).unwrap());
    assert_eq!((rule.as_str(), message.as_str()), ("bidding.turns", "the bidding is over"), "{message}");
}

/// Simulated games, uniform (the simulator chooses among the words `next` offers, the raises
/// included) and steered through the last word: all valid, some raised.
#[test]
fn simulated_games_raise_at_the_last_word_and_stay_valid() {
    let r = rules();
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let steered = SimOptions { last_word: 0.5, ..SimOptions::steered() };
    let (mut raised, mut kept) = (0, 0);
    for i in 0..400 {
        let sim = if i % 2 == 0 { SimOptions::default() } else { steered.clone() };
        let g = random_game_with(&r, 4, &BTreeMap::new(), &sim, &mut rng).unwrap();
        let v = replay(&r, &g).unwrap();
        if v.status == Status::Annulled {
            continue;
        }
        assert_eq!(v.status, Status::Valid, "{:?}", v.violation);
        let bids: Vec<&str> = g.events.iter().filter_map(|e| if let Event::Bid { bid, .. } = e { Some(bid.as_str()) } else { None }).collect();
        if bids.len() == 5 {
            if bids[4] == "prise" {
                kept += 1;
            } else {
                raised += 1;
                assert!(v.notes.iter().any(|n| n.contains("raised it to")), "{:?}", v.notes);
            }
        }
    }
    assert!(raised >= 5 && kept >= 1, "raised {raised}, kept {kept}");
}

/// With `instead` on the same contract won, the last word offers both: the contract won, the one played
/// each for himself, and the raises. A raise naming the contract of an `instead` is refused.
#[test]
fn raise_and_instead_share_the_last_word_and_never_name_the_same_contract() {
    let both = "bidding {\n  contract raeuber \"Räuber\" { multiplier = 1; dog = \"defence\" }\n  instead prise raeuber \"forehand\" = player == first_hand\n  raise";
    let r = common::test_rules(ID, Some(("bidding {\n  raise", both))).unwrap_or_else(|d| panic!("{d}"));
    let g = deal(&r, 1);
    let v = say(&r, g, &WON);
    assert_eq!(next(&v).2, ["prise", "raeuber", "garde-sans", "garde-contre"]);
    let clash =
        "bidding {\n  contract raeuber \"Räuber\" { multiplier = 1; dog = \"defence\" }\n  instead prise raeuber \"forehand\" = player == first_hand\n  raise prise to raeuber";
    let e = common::test_rules(ID, Some(("bidding {\n  raise prise to garde-sans", clash))).unwrap_err();
    assert!(e.contains("`raise prise to raeuber`: raeuber is played with no taker"), "{e}");
}
