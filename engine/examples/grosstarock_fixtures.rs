//! Writes the Grosstarock games arranged or picked to show its rules, next to the fixtures
//! `make_fixtures` writes for every ruleset:
//!
//!     cargo run -p tarot-engine --example generators -- grosstarock_fixtures
//!
//! PW's worked example (five matadors and twelve trumps, each worth 20), a Tout from a deal that
//! gives first hand every trump and every king, a Nolo from one that gives him the lowest cards, random games picked for each payment of the last
//! trick (Pagat and King Ultimo, made and failed, the last trick), a game under the classical
//! Fool's deadline, a game whose compulsory Trumps declaration is left out (invalid), and a dealer
//! who declares his Cavalleries with the courts he had to lay away.
//!
//!     cargo run -p tarot-engine --example generators -- grosstarock_fixtures 1754
//!
//! writes only the discards of the Leipzig rules of 1754 (option trump_discard = "1754"): the dealer's
//! three trumps with the Pagat laid away, the Pagat, the Fool and one trump laid away, and two of
//! three trumps laid away (invalid).
//!
//!     cargo run -p tarot-engine --example generators -- grosstarock_fixtures 1754-2
//!
//! writes only the declarations of the Leipzig rules of 1754 (option declarations = "1754", L1754 §2):
//! the dealer declaring first, a dealer declaring after first hand (invalid), and an honour left
//! undeclared (valid under 1754, where it is simply not paid).

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{random_game, random_game_from};
use tarot_engine::{replay, Event, GameRecord, Registry, Status, Verdict};

pub fn main(mode: Option<&str>) {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get("grosstarock").expect("the grosstarock ruleset");
    let root = common::fixtures().join("grosstarock");
    let none = BTreeMap::new();
    if mode == Some("1754-2") {
        leipzig_1754_declarations(rules, &root);
        return;
    }
    if mode == Some("1754") {
        leipzig_1754(rules, &root);
        return;
    }

    // PW "Declarations": "the Fool, the Pagat, the 21, the 20, and the 19 is 5 matadors" (10 + 5 x 2),
    // and twelve trumps with the Fool (10 + 5 x 2): first hand holds both, and no court or king.
    let worked = "EX T1 T21 T20 T19 T2 T3 T4 T5 T6 T7 T8 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H";
    let game = arranged(rules, "Ann", worked, &none, 11, |v| v.ledger.iter().any(|e| &*e.rule == "declaration.matadors" && e.amount == tarot_engine::Q::int(20)));
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
    for _ in 0..5000 {
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

fn write(path: &Path, mut rec: GameRecord, description: &str) {
    rec.description = Some(description.into());
    common::write(path, &rec);
}

/// L1754 §1 (option trump_discard = "1754"): the dealer holds just three trumps with the Pagat (and
/// the Fool), every court (so no court of his Cavalleries may go) and eight numerals, and lays the
/// three trumps away; then the Pagat, the Fool and one trump; then two of his three trumps with a
/// numeral, which the rule forbids.
fn leipzig_1754(rules: &Ruleset, root: &Path) {
    let options = BTreeMap::from([("trump_discard".to_string(), serde_json::json!("1754"))]);
    let courts = "KH QH CH JH KD QD CD JD KS QS CS JS KC QC CC JC";
    let discard_of = |rec: &GameRecord| -> Vec<String> {
        rec.events.iter().find_map(|e| if let Event::Discard { cards, .. } = e { Some(cards.iter().map(|c| c.to_string()).collect()) } else { None }).unwrap_or_default()
    };
    let three = format!("T1 T2 T3 EX {courts} 2S 3S 4S 5S 6S 7S 8S 9S");
    let game = arranged_until(rules, &three, &options, 1754, |rec| {
        let d = discard_of(rec);
        ["T1", "T2", "T3"].iter().all(|c| d.iter().any(|x| x == c))
    });
    write(
        &root.join("valid/discard-1754-three-trumps.json"),
        game.clone(),
        "L1754 §1 (option trump_discard = \"1754\"): the dealer (Cid) holds just three trumps, the Pagat among them, and lays all three away (\"so kann er diese 3, wenn er will, ablegen\"); under the Danish rule (the default) the Pagat could never go (discard.forbid); the rest of the deal and the play at random",
    );
    let pagat_fool = format!("T1 T5 EX {courts} 2S 3S 4S 5S 6S 7S 8S 9S 10S");
    let other = arranged_until(rules, &pagat_fool, &options, 1755, |rec| {
        let d = discard_of(rec);
        ["T1", "T5", "EX"].iter().all(|c| d.iter().any(|x| x == c))
    });
    write(
        &root.join("valid/discard-1754-pagat-fool.json"),
        other,
        "L1754 §1 (option trump_discard = \"1754\"): the dealer (Cid) holds the Pagat, one other trump and the Fool, and lays the three away (\"Desgleichen kann auch der Pagat, Sckis, und 1 Taroc abgeleget werden\"); the rest of the deal and the play at random",
    );
    // Two of his three trumps and a numeral: the discard of the first game changed.
    let mut broken = game;
    for e in broken.events.iter_mut() {
        if let Event::Discard { cards, .. } = e {
            *cards = vec!["T1".into(), "T2".into(), "2S".into()];
        }
    }
    let v = replay(rules, &broken).expect("replayable");
    assert_eq!(v.violation.as_ref().map(|x| &*x.rule), Some("discard.require.3"), "{}", v.to_text());
    write(
        &root.join("invalid/discard.require.3.json"),
        broken,
        "Breaks discard.require.3 (option trump_discard = \"1754\"): the dealer lays away the Pagat and one other of his three trumps with a numeral, keeping the third trump: L1754 §1 lets the trumps go only all three together (\"hat er aber mehr oder weniger als 3 Blätter Taroc, so kann davon nichts abgeleget werden\"); the game of discard-1754-three-trumps.json with its discard changed",
    );
}

/// A game from a deal that gives the dealer (Cid) `cards` (28), Ann and Bob 25 each of the rest at
/// random, played out at random until `keep` holds of the record (and it is valid).
fn arranged_until(rules: &Ruleset, cards: &str, options: &BTreeMap<String, serde_json::Value>, seed: u64, keep: impl Fn(&GameRecord) -> bool) -> GameRecord {
    let table: Vec<String> = ["Ann", "Bob", "Cid"].iter().map(|s| s.to_string()).collect();
    let mine: Vec<String> = cards.split_whitespace().map(String::from).collect();
    assert_eq!(mine.len(), 28, "the dealer's 28 cards");
    let mut rest: Vec<String> = rules.pack.cards.iter().map(|c| c.code().to_string()).filter(|c| !mine.contains(c)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..20_000 {
        rest.shuffle(&mut rng);
        let hands = BTreeMap::from([
            ("Cid".into(), mine.iter().map(|c| c.as_str().into()).collect()),
            ("Ann".into(), rest[..25].iter().map(|c| c.as_str().into()).collect()),
            ("Bob".into(), rest[25..].iter().map(|c| c.as_str().into()).collect()),
        ]);
        let deal = Event::Deal { hands, dog: vec![], cut: None, piles: BTreeMap::new(), packets: vec![] };
        let Ok(rec) = random_game_from(rules, &table, 2, deal, options, &mut rng) else { continue };
        if keep(&rec) && replay(rules, &rec).expect("replayable").status == Status::Valid {
            return rec;
        }
    }
    panic!("no game from the arranged deal {cards}");
}

/// L1754 §2 (option declarations = "1754"): the dealer (Cid) holds the four kings and numerals, so
/// he declares his Kings first, then first hand (Ann) her Trumps; the same game
/// with Ann declaring before the dealer (invalid); and with Ann's declarations left out (valid: an
/// honour not declared is not paid). Each is checked under PW too, where the rule differs.
fn leipzig_1754_declarations(rules: &Ruleset, root: &Path) {
    let options = BTreeMap::from([("declarations".to_string(), serde_json::json!("1754"))]);
    let pw = BTreeMap::from([("declarations".to_string(), serde_json::json!("PW"))]);
    let cards = "KS KH KD KC 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H 1D 2D 3D 4D";
    let declarers =
        |rec: &GameRecord| -> Vec<String> { rec.events.iter().filter_map(|e| if let Event::Declare { player, .. } = e { Some(player.to_string()) } else { None }).collect() };
    let game = arranged_until(rules, cards, &options, 17542, |rec| {
        let d = declarers(rec);
        d.first().is_some_and(|p| p == "Cid") && d.iter().any(|p| p == "Ann")
    });
    let under = |rec: &GameRecord, options: &BTreeMap<String, serde_json::Value>| {
        let mut r = rec.clone();
        r.options = options.clone();
        replay(rules, &r).expect("replayable")
    };
    let pw_rule = under(&game, &pw).violation.map(|x| x.rule.to_string());
    assert_eq!(pw_rule.as_deref(), Some("declaration.trumps.in-turn"), "under PW");
    write(
        &root.join("valid/declarations-1754-dealer-first.json"),
        game.clone(),
        "L1754 §2 (option declarations = \"1754\"): as soon as the dealer (Cid) has laid away he declares his Kings (\"so saget er die Honneurs\"), then first hand (Ann) hers; under PW's order, from first hand, first hand's Trumps after the dealer's Kings break declaration.trumps.in-turn; the rest of the deal and the play at random",
    );
    // Ann's declarations moved before the dealer's: out of the turn that starts at the dealer.
    let mut early = game.clone();
    let is_ann = |e: &Event| matches!(e, Event::Declare { player, .. } if &**player == "Ann");
    let anns: Vec<Event> = early.events.iter().filter(|e| is_ann(e)).cloned().collect();
    early.events.retain(|e| !is_ann(e));
    let at = early.events.iter().position(|e| matches!(e, Event::Declare { .. })).expect("the dealer's declaration");
    for (i, e) in anns.into_iter().enumerate() {
        early.events.insert(at + i, e);
    }
    let v = replay(rules, &early).expect("replayable");
    assert_eq!(v.violation.as_ref().map(|x| (&*x.rule, x.player.as_deref())), Some(("declaration.kings.in-turn", Some("Cid"))), "{}", v.to_text());
    write(
        &root.join("invalid/declaration.kings.in-turn.json"),
        early,
        "Breaks declaration.kings.in-turn (option declarations = \"1754\"): first hand (Ann) declares before the dealer (Cid), who then declares his Kings out of turn: L1754 §2 has the dealer declare first, then the others; the game of declarations-1754-dealer-first.json with Ann's declarations moved first",
    );
    // Ann's declarations left out: under 1754 simply not paid; under PW compulsory.
    let mut quiet = game;
    quiet.events.retain(|e| !is_ann(e));
    let v = replay(rules, &quiet).expect("replayable");
    assert_eq!(v.status, Status::Valid, "{}", v.to_text());
    let pw_rule = under(&quiet, &pw).violation.map(|x| x.rule.to_string());
    assert_eq!(pw_rule.as_deref(), Some("declaration.trumps.compulsory"), "under PW");
    write(
        &root.join("valid/declarations-1754-not-declared.json"),
        quiet,
        "L1754 §2 (option declarations = \"1754\"): first hand (Ann) does not declare what she holds, which is simply not paid (\"so sind sie nicht weiter gültig, und wird folglich dafür nichts bezahlet\"); under PW the first card breaks declaration.trumps.compulsory; the game of declarations-1754-dealer-first.json with Ann's declarations left out",
    );
}
