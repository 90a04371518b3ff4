//! Writes the Grosstarock games arranged or picked to show its rules, next to the fixtures
//! `make_fixtures` writes for every ruleset:
//!
//!     cargo run -p tarot-engine --example grosstarock_fixtures
//!
//! PW's worked example (five matadors and twelve trumps, each worth 20), a Tout from a deal that
//! gives first hand every trump and every king, a Nolo from one that gives him the lowest cards, random games picked for each payment of the last
//! trick (Pagat and King Ultimo, made and failed, the last trick), a game under the classical
//! Fool's deadline, a game whose compulsory Trumps declaration is left out (invalid), and a dealer
//! who declares his Cavalleries with the courts he had to lay away.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::simulate::{random_game, random_game_from};
use tarot_engine::{replay, Event, GameRecord, Registry, Status, Verdict};

fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get("grosstarock").expect("the grosstarock ruleset");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/grosstarock");
    let none = BTreeMap::new();

    // PW "Declarations": "the Fool, the Pagat, the 21, the 20, and the 19 is 5 matadors" (10 + 5 x 2),
    // and twelve trumps with the Fool (10 + 5 x 2): first hand holds both, and no court or king.
    let worked = "EX T1 T21 T20 T19 T2 T3 T4 T5 T6 T7 T8 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H";
    let game = arranged(rules, "Ann", worked, &none, 11, |v| v.ledger.iter().any(|e| &*e.rule == "declaration.matadors" && e.amount == tarot_engine::num::Q::int(20)));
    write(&root.join("valid/worked-five-matadors.json"), game, "PW's worked examples (\"Declarations\"): first hand holds the Fool, the Pagat, the XXI, XX and XIX (five matadors, 10 + 5 x 2 = 20 from each other player) among twelve trumps with the Fool (Trumps, 10 + 5 x 2 = 20 from each); the rest of the deal and the play at random");

    // A Tout: first hand holds every trump and every king, so he takes every trick (135 from each).
    let tout = "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 KS KH KD KC";
    let game = arranged(rules, "Ann", tout, &none, 12, |v| v.ledger.iter().any(|e| &*e.rule == "score.pay.tout"));
    write(&root.join("valid/tout.json"), game, "A Tout (PW \"Payments\", 135 from each other player): first hand is dealt every trump and every king and takes every trick; no Ultimo and no card points are paid under it; the rest at random");

    // A Nolo: first hand is dealt the lowest cards and takes no trick (25 from each; no card points).
    let nolo = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H 1C 2C 3C 1D 2D";
    let game = arranged(rules, "Ann", nolo, &none, 13, |v| v.ledger.iter().any(|e| &*e.rule == "score.pay.nolo"));
    write(
        &root.join("valid/nolo.json"),
        game,
        "A Nolo (PW \"Payments\", 25 from each other player, and no card points paid): first hand is dealt twenty-five low numerals and takes no trick; the rest at random",
    );

    // Random games picked for what their last trick pays.
    let picks = [
        ("pagat-ultimo", "score.pay.pagat-ultimo", "the last trick won with the Pagat: a Pagat Ultimo, 45 from each other player"),
        ("king-ultimo", "score.pay.king-ultimo", "the last trick won with a king: a King Ultimo, 40 from each other player"),
        ("failed-pagat-ultimo", "on.play.failed-pagat-ultimo", "the Pagat played to the last trick and beaten: a failed Ultimo, 45 to each other player"),
        ("failed-king-ultimo", "on.play.failed-king-ultimo", "a king played to the last trick and beaten: a failed Ultimo, 40 to each other player"),
        ("last-trick", "score.pay.last-trick", "the last trick without the Pagat or a king in it: 20 from each other player"),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(1786);
    for (name, rule, what) in picks {
        let mut found = None;
        for seed in 0..2000u64 {
            let rec = random_game(rules, 3, &none, &mut rng).expect("simulated game");
            let v = replay(rules, &rec).expect("replayable");
            if v.status == Status::Valid && v.ledger.iter().any(|e| &*e.rule == rule) {
                found = Some((rec, seed));
                break;
            }
        }
        let (rec, seed) = found.unwrap_or_else(|| panic!("no random game with {rule}"));
        write(&root.join(format!("valid/{name}.json")), rec, &format!("A random legal game (draw {seed} of `grosstarock_fixtures`) picked for {what} (PW \"Payments\")"));
    }

    // The classical Fool's deadline (W): the Fool played before the last three tricks.
    let options = BTreeMap::from([("fool_deadline".to_string(), serde_json::json!(3))]);
    let rec = random_game(rules, 3, &options, &mut rng).expect("simulated game");
    write(
        &root.join("valid/fool-deadline-3.json"),
        rec,
        "A random legal game under option fool_deadline = 3, the 1750s rule that the Fool is played before the last three tricks (W)",
    );

    // A trump laid away by a dealer who keeps others (PW: only if that leaves him none).
    for _ in 0..2000 {
        let mut rec = random_game(rules, 3, &none, &mut rng).expect("simulated game");
        let Some(i) = rec.events.iter().position(|e| matches!(e, Event::Discard { .. })) else { continue };
        let Event::Deal { hands, .. } = &rec.events[0] else { continue };
        let dealt: Vec<String> = hands[rec.dealer.as_str()].iter().map(|c| c.to_string()).collect();
        let plain: Vec<&String> = dealt.iter().filter(|c| c.starts_with('T') && *c != "T1" && *c != "T21").collect();
        if plain.len() < 2 {
            continue;
        }
        let trump = plain[0].as_str().into();
        if let Event::Discard { cards, .. } = &mut rec.events[i] {
            cards[0] = trump;
        }
        let v = replay(rules, &rec).expect("replayable");
        assert_eq!(v.violation.as_ref().map(|x| &*x.rule), Some("discard.require.1"));
        write(
            &root.join("invalid/discard.require.1.json"),
            rec,
            "Breaks discard.require.1: a random legal game whose dealer lays away a trump while he keeps others (PW: a trump only if that leaves him none)",
        );
        break;
    }

    // A court of a Cavallerie laid away while other cards could go (PW: not unless no alternative).
    'search: for _ in 0..4000 {
        let mut rec = random_game(rules, 3, &none, &mut rng).expect("simulated game");
        let Some(i) = rec.events.iter().position(|e| matches!(e, Event::Discard { .. })) else { continue };
        let Event::Deal { hands, .. } = &rec.events[0] else { continue };
        let dealt: Vec<String> = hands[rec.dealer.as_str()].iter().map(|c| c.to_string()).collect();
        for suit in ["H", "D", "S", "C"] {
            let courts: Vec<String> = ["K", "Q", "C", "J"].iter().map(|r| format!("{r}{suit}")).filter(|c| dealt.contains(c)).collect();
            if courts.len() == 4 || (courts.len() == 3 && dealt.iter().any(|c| c == "EX")) {
                let Some(court) = courts.iter().find(|c| !c.starts_with('K')) else { continue };
                let court = court.as_str().into();
                if let Event::Discard { cards, .. } = &mut rec.events[i] {
                    if cards.contains(&court) {
                        continue;
                    }
                    cards[0] = court;
                }
                let v = replay(rules, &rec).expect("replayable");
                if v.violation.as_ref().map(|x| &*x.rule) != Some("discard.require.2") {
                    continue 'search;
                }
                write(&root.join("invalid/discard.require.2.json"), rec, "Breaks discard.require.2: a random legal game whose dealer, holding a Cavallerie, lays away one of its courts while other cards could go (PW: \"Cards that are part of a declarable combination cannot be discarded unless there is no alternative\")");
                break 'search;
            }
        }
    }

    // A compulsory declaration left out: the first card breaks it.
    for _ in 0..2000 {
        let mut rec = random_game(rules, 3, &none, &mut rng).expect("simulated game");
        let Some(i) = rec.events.iter().position(|e| matches!(e, Event::Declare { declaration, .. } if &**declaration == "trumps")) else { continue };
        rec.events.remove(i);
        let v = replay(rules, &rec).expect("replayable");
        assert_eq!(v.violation.as_ref().map(|x| &*x.rule), Some("declaration.trumps.compulsory"));
        write(&root.join("invalid/declaration.trumps.compulsory.json"), rec, "Breaks declaration.trumps.compulsory: a random legal game whose Trumps declaration (ten trumps or more, the Fool counting) is left out; the first card closes the declarations while its holder has not made it (PW: \"each player must declare\")");
        break;
    }

    // PW "Deal and Discard": a dealer who can lay away nothing but courts of his Cavalleries (twelve
    // trumps, so no trump may go, and the sixteen courts) lays three away, and "must still declare
    // the combination as normal, and say which cards" he laid away (`from hand-and-discard`).
    let courts = "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 KH QH CH JH KD QD CD JD KS QS CS JS KC QC CC JC";
    let game = arranged(rules, "Cid", courts, &none, 17, |v| v.notes.iter().any(|n| n.contains("laid away in his discard")));
    write(
        &root.join("valid/dealer-declares-laid-away.json"),
        game,
        "PW \"Deal and Discard\": the dealer (Cid) holds twelve trumps and the sixteen courts, so he can lay away only courts of his Cavalleries, and still declares each Cavallerie in full, naming the courts laid away (with Trumps and Kings); the rest of the deal and the play at random",
    );
}

/// A game from a deal that gives `seat` (Ann, first hand, 25 cards; or Cid, the dealer, 28) the cards
/// `cards`, the others in turn 25 of the rest at random and then what is left, played out at random
/// until `keep` holds of its verdict.
fn arranged(rules: &Ruleset, seat: &str, cards: &str, options: &BTreeMap<String, serde_json::Value>, seed: u64, keep: impl Fn(&Verdict) -> bool) -> GameRecord {
    let table: Vec<String> = ["Ann", "Bob", "Cid"].iter().map(|s| s.to_string()).collect();
    let mine: Vec<String> = cards.split_whitespace().map(String::from).collect();
    let mut rest: Vec<String> = rules.pack.cards.iter().map(|c| c.code().to_string()).filter(|c| !mine.contains(c)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..500 {
        rest.shuffle(&mut rng);
        let others: Vec<&String> = table.iter().filter(|p| p.as_str() != seat).collect();
        let hands = BTreeMap::from([
            (seat.into(), mine.iter().map(|c| c.as_str().into()).collect()),
            (others[0].as_str().into(), rest[..25].iter().map(|c| c.as_str().into()).collect()),
            (others[1].as_str().into(), rest[25..].iter().map(|c| c.as_str().into()).collect()),
        ]);
        let deal = Event::Deal { hands, dog: vec![], cut: None, piles: BTreeMap::new(), packets: vec![] };
        let rec = random_game_from(rules, &table, 2, deal, options, &mut rng).expect("a game from the deal");
        let v = replay(rules, &rec).expect("replayable");
        if v.status == Status::Valid && keep(&v) {
            return rec;
        }
    }
    panic!("no game from the arranged deal {cards}");
}

fn write(path: &PathBuf, mut rec: GameRecord, description: &str) {
    rec.description = Some(description.into());
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("writable fixtures folder");
    std::fs::write(path, serde_json::to_string_pretty(&rec).expect("serializable") + "\n").expect("writable fixture");
}
