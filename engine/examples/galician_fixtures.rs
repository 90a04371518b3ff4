//! Writes the corner fixtures of `galician-tarok` (fixtures/galician-tarok/{valid,invalid}/): each
//! contract won and lost, the target of 48 against TG42's 46, the Ultimo announced and made, announced
//! and lost, made unannounced and made by a defender, clockwise play, and the bids TG42 forbids (a solo
//! after a first turn, a raise by two steps, eldest passing). Every game is a seeded simulated game
//! found by search, so the fixtures are reproducible:
//!
//!     cargo run -p tarot-engine --example generators -- galician_fixtures
//!     cargo run -p tarot-engine --example generators -- galician_fixtures trischaken   # only Trischaken and the Suit-Solo
//!     cargo run -p tarot-engine --example generators -- galician_fixtures threes       # only the count in threes
//!     cargo run -p tarot-engine --example generators -- galician_fixtures priority     # only the hold by seniority
//!     cargo run -p tarot-engine --example generators -- galician_fixtures NAME         # only the case NAME of the first list
//!
//! The fixtures of the first list were written before Trischaken could be chosen; where eldest won
//! with a Single, his word `single` after the auction was then added to them by hand (the choice
//! draws from the simulator's random stream, so running the whole list again writes other games).
//!
//! The simulated fixtures of the ruleset come from `MAKE_FIXTURES_ONLY=galician-tarok make_fixtures`.

use crate::common;

use common::write;

use std::collections::BTreeMap;
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::Outcome;
use tarot_engine::{random_game_with, ContractChoice, SimOptions};
use tarot_engine::{replay, Event, GameRecord, Registry, Status};

const ID: &str = "galician-tarok";

type Want = fn(&GameRecord, &Outcome) -> bool;

fn value(o: &Outcome, name: &str) -> serde_json::Value {
    o.value(name).unwrap_or(serde_json::Value::Null)
}

fn num(o: &Outcome, name: &str) -> f64 {
    value(o, name).as_f64().unwrap_or(f64::NAN)
}

fn announced(rec: &GameRecord) -> bool {
    rec.events.iter().any(|e| matches!(e, Event::Declare { declaration, .. } if declaration.as_str() == "ultimo"))
}

pub fn main(only: Option<&str>) {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("galician-tarok is built in");
    let root = common::fixtures().join(ID);
    let target46 = BTreeMap::from([("target".to_string(), serde_json::json!(46))]);
    let clockwise = BTreeMap::from([("direction".to_string(), serde_json::json!("clockwise"))]);
    let none = BTreeMap::new();
    if only == Some("trischaken") {
        trischaken_and_suit_solo(rules, &root);
        return;
    }
    if only == Some("threes") {
        threes(rules, &root);
        return;
    }
    if only == Some("priority") {
        seniority(rules, &root);
        return;
    }
    let made: Want = |_, o| value(o, "made") == serde_json::json!(true);
    let lost: Want = |_, o| value(o, "made") == serde_json::json!(false);
    #[rustfmt::skip]
    let cases: Vec<(&str, &str, &BTreeMap<String, serde_json::Value>, Want, &str)> = vec![
        ("single-made", "single", &none, made, "A Single made: the declarer takes one three of the talon, lays away three and takes at least 48 of the 94 points (TG42 \"Bids\"; the target read from AW's values)"),
        ("single-lost", "single", &none, lost, "A Single lost: the declarer takes fewer than 48 points and pays each opponent 10 (TG42 \"Bids\")"),
        ("double", "double", &none, |_, _| true, "A Double (20): eldest's forced Single outbid by one step (TG42 \"Bids\")"),
        ("triple", "triple", &none, |_, _| true, "A Triple (30): the Single raised step by step (TG42 \"Bids\")"),
        ("solo-made", "solo", &none, made, "A Solo made: the talon unseen, counting for the opponents (a reading: TG42 does not say whose it is), at least 48 points (TG42 \"Bids\")"),
        ("solo-lost", "solo", &none, lost, "A Solo lost: fewer than 48 points with the talon unseen; the declarer pays each opponent 40 (TG42 \"Bids\")"),
        ("solo-slam-lost", "solo-slam", &none, lost, "A Solo-Slam lost: the declarer, talon unseen, fails to take every trick and pays each opponent 320 (TG42 \"Bids\")"),
        ("ultimo-announced-made", "single", &none, |r, o| announced(r) && value(o, "ultimo_made") == serde_json::json!(true),
            "The Ultimo announced and made: the Pagat, kept to the last trick, takes it; 100 (AW §6)"),
        ("ultimo-announced-lost", "single", &none, |r, o| announced(r) && value(o, "ultimo_made") == serde_json::json!(false),
            "The Ultimo announced and lost (the Pagat beaten in the last trick, or driven out before it): it pays the same 100 (AW §6)"),
        ("ultimo-silent", "single", &none, |r, o| !announced(r) && value(o, "ultimo_made") == serde_json::json!(true),
            "The Pagat takes the last trick unannounced: the Ultimo, 50 (AW §6)"),
        ("ultimo-defender", "single", &none, |r, o| value(o, "ultimo_made") == serde_json::json!(true) && value(o, "ultimo_side") != serde_json::json!(o.taker.as_deref()) && r.players.len() == 3,
            "A defender's Pagat takes the last trick: the Ultimo counts against the declarer (AW §6; between the sides, a reading of §27 not read)"),
        ("clockwise", "single", &clockwise, |_, _| true, "A Single played clockwise, TG42's direction (option direction = clockwise; W's infobox, the default, says anticlockwise)"),
        ("target-46-made", "single", &target46, |_, o| (46.0..48.0).contains(&num(o, "points")),
            "A Single with 46 or 47 points, made under TG42's stated '46+' (option target = 46); under the default target of 48 (over half of AW's 94) the same game is lost: target-48-lost.json"),
    ];
    for (name, contract, options, want, what) in cases {
        if only.is_some_and(|o| o != name) {
            continue;
        }
        let sim = SimOptions { contract: ContractChoice::Only(contract.into()), ..SimOptions::steered() };
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let mut found = None;
        for seed in 0..20_000u64 {
            let Ok(rec) = random_game_with(rules, 3, options, &sim, &mut rng) else { continue };
            let v = replay(rules, &rec).expect("replayable");
            let Some(o) = v.outcome.as_ref().filter(|_| v.status == Status::Valid) else { continue };
            if o.contract.as_deref() == Some(contract) && want(&rec, o) {
                found = Some((seed, rec));
                break;
            }
        }
        let Some((seed, mut rec)) = found else {
            eprintln!("{name}: not found in 20000 games");
            continue;
        };
        rec.description = Some(format!("{what}: game {seed} of seed 42 of `galician_fixtures`"));
        write(&root.join("valid").join(format!("{name}.json")), &rec);
        if name == "target-46-made" {
            let mut same = rec.clone();
            same.options.remove("target");
            let v = replay(rules, &same).expect("replayable");
            assert_eq!(v.outcome.as_ref().map(|o| value(o, "made")), Some(serde_json::json!(false)), "lost at 48");
            same.description = Some(format!("The game of target-46-made.json under the default target of 48 (over half of AW's 94 points): the Single with 46 or 47 is lost: game {seed} of seed 42 of `galician_fixtures`"));
            write(&root.join("valid").join("target-48-lost.json"), &same);
        }
    }
    if only.is_some() {
        return;
    }
    invalid_bids(rules, &root);
    ultimo_kept(rules, &root);
}

/// The bids TG42 forbids, put in place of a simulated game's bidding.
fn invalid_bids(rules: &tarot_engine::ir::Ruleset, root: &Path) {
    let sim = SimOptions { contract: ContractChoice::Only("single".into()), ..SimOptions::steered() };
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let base = random_game_with(rules, 3, &BTreeMap::new(), &sim, &mut rng).expect("a game");
    // Those who bid, in the order they speak: eldest first.
    let first = base.events.iter().find_map(|e| if let Event::Bid { player, .. } = e { Some(player.clone()) } else { None }).expect("a bid");
    let at = base.players.iter().position(|p| *p == *first).unwrap();
    let seat = |i: usize| base.players[(at + i) % 3].clone().into();
    let cases: [(&str, Vec<(usize, &str)>, &str); 3] = [
        ("bidding.first-turn", vec![(0, "single"), (1, "double"), (2, "pass"), (0, "solo")], "eldest opens with a Single, middle hand raises to a Double, rear hand passes, and eldest, speaking a second time, bids a Solo, which may be bid only at the first opportunity (TG42 \"Bids\")"),
        ("bidding.step", vec![(0, "single"), (1, "triple")], "middle hand outbids eldest's Single with a Triple: a Single may be outbid only by a Double (TG42 \"Bids\")"),
        ("bidding.must-bid.single", vec![(0, "pass")], "eldest passes: he must open with a Single (TG42 \"Bids\")"),
    ];
    for (rule, bids, what) in cases {
        let mut rec = base.clone();
        rec.events.retain(|e| matches!(e, Event::Deal { .. }));
        rec.events.extend(bids.iter().map(|&(s, bid)| Event::Bid { player: seat(s), bid: bid.into() }));
        let v = replay(rules, &rec).expect("replayable");
        assert_eq!(v.violation.as_ref().map(|x| x.rule.to_string()), Some(rule.to_string()), "{rule}: {}", v.to_text());
        rec.description = Some(format!("Breaks {rule}: {what}; the deal of game 0 of seed 7 of `galician_fixtures`"));
        write(&root.join("invalid").join(format!("{rule}.json")), &rec);
    }
}

/// An announced Ultimo whose declarer plays the Pagat early, while he had another card he could play.
fn ultimo_kept(rules: &tarot_engine::ir::Ruleset, root: &Path) {
    let sim = SimOptions { contract: ContractChoice::Only("single".into()), ..SimOptions::steered() };
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for seed in 0..20_000u64 {
        let Ok(rec) = random_game_with(rules, 3, &BTreeMap::new(), &sim, &mut rng) else { continue };
        let Some(declarer) = rec.events.iter().find_map(|e| match e {
            Event::Declare { player, declaration, .. } if declaration.as_str() == "ultimo" => Some(player.clone()),
            _ => None,
        }) else {
            continue;
        };
        // His first trump played other than the Pagat, in a trick before the last: the Pagat instead.
        let plays: Vec<usize> = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).map(|(i, _)| i).collect();
        let early = plays.len() - 3;
        for &i in &plays[..early] {
            let Event::Play { player, card } = &rec.events[i] else { continue };
            if *player != declarer || !card.starts_with('T') || card.as_str() == "T1" || card.as_str() == "T22" {
                continue;
            }
            let mut bad = rec.clone();
            bad.events[i] = Event::Play { player: player.clone(), card: "T1".into() };
            let v = replay(rules, &bad).expect("replayable");
            if v.violation.as_ref().is_some_and(|x| &*x.rule == "declaration.ultimo.keeps") {
                bad.description = Some(format!(
                    "Breaks declaration.ultimo.keeps: {declarer} announced the Ultimo and plays the Pagat at event {i}, before the last trick, though he could play another tarock (AW §6): game {seed} of seed 11 of `galician_fixtures`"
                ));
                write(&root.join("invalid").join("declaration.ultimo.keeps.json"), &bad);
                return;
            }
        }
    }
    eprintln!("declaration.ultimo.keeps: not found");
}

/// TG42's Trischaken (eldest, having won with a Single, plays each for himself instead) and
/// Suit-Solo (the tarocks do not trump): games of each, the choice still to be made, and the moves
/// these rules forbid.
fn trischaken_and_suit_solo(rules: &tarot_engine::ir::Ruleset, root: &Path) {
    let none = BTreeMap::new();
    let declarer_leads = BTreeMap::from([("solo_lead".to_string(), serde_json::json!("declarer"))]);
    let most = |o: &Outcome| o.players.iter().filter(|p| p.card_points == o.players.iter().map(|q| q.card_points).max().unwrap()).count();
    // A trick in which a tarock was played to a suit led.
    let trumped_in_vain = |v: &tarot_engine::Verdict| v.tricks.iter().any(|t| !t.cards[0].is_trump() && t.cards.iter().any(|c| c.is_trump()));
    #[rustfmt::skip]
    let cases: Vec<(&str, &str, &BTreeMap<String, serde_json::Value>, Shows, &str)> = vec![
        ("trischaken", "trischaken", &none, |_, most| most == 1,
            "Trischaken: eldest, having won with a Single, declares it instead (TG42 \"Bids\"); each plays for himself, the talon unused, the Pagat played as one's last tarock, and the one with the most card points pays each other player 10 (TG42 \"Trischaken\")"),
        ("trischaken-tie", "trischaken", &none, |_, most| most == 2,
            "Trischaken with two tied for the most card points: each of them pays the third 10 (TG42 \"Trischaken\")"),
        ("suit-solo-made", "suit-solo", &none, |v, _| v.outcome.as_ref().unwrap().value("made") == Some(serde_json::json!(true)),
            "A Suit-Solo made: the talon unseen, the tarocks a fifth suit that takes only a trick of tarocks (TG42 \"Suit-Solo\", read with FD)"),
        ("suit-solo-lost", "suit-solo", &none, |v, _| v.outcome.as_ref().unwrap().value("made") == Some(serde_json::json!(false)),
            "A Suit-Solo lost: fewer than 48 points; a tarock played to a suit led takes nothing (TG42 \"Suit-Solo\", read with FD)"),
        ("suit-solo-declarer-leads", "suit-solo", &declarer_leads, |_, _| true,
            "A Suit-Solo whose declarer leads the first trick (option solo_lead = declarer; TG42: \"Some play that in a Suit-Solo or Solo Declarer leads\")"),
    ];
    for (name, contract, options, want, what) in cases {
        let sim = SimOptions { contract: ContractChoice::Only(contract.into()), ..SimOptions::steered() };
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let mut found = None;
        for seed in 0..20_000u64 {
            let Ok(rec) = random_game_with(rules, 3, options, &sim, &mut rng) else { continue };
            let v = replay(rules, &rec).expect("replayable");
            let Some(o) = v.outcome.as_ref().filter(|_| v.status == Status::Valid) else { continue };
            let vain = contract != "suit-solo" || trumped_in_vain(&v);
            if o.contract.as_deref() == Some(contract) && vain && want(&v, most(o)) {
                found = Some((seed, rec));
                break;
            }
        }
        let Some((seed, mut rec)) = found else {
            eprintln!("{name}: not found in 20000 games");
            continue;
        };
        rec.description = Some(format!("{what}: game {seed} of seed 42 of `galician_fixtures`"));
        write(&root.join("valid").join(format!("{name}.json")), &rec);
        if name == "trischaken" {
            // The same deal, stopped where eldest has won with his Single and is still to choose.
            let mut choosing = rec.clone();
            let bids = choosing.events.iter().take_while(|e| matches!(e, Event::Deal { .. } | Event::Bid { .. })).count();
            choosing.events.truncate(bids - 1);
            choosing.description = Some(format!(
                "Eldest has won the auction with his Single and says next whether he plays it or declares Trischaken (TG42 \"Bids\"): the bids of game {seed} of seed 42 of `galician_fixtures`"
            ));
            write(&root.join("in_progress").join("trischaken-choice.json"), &choosing);
            // Eldest passing on the choice, or another player choosing for him.
            let mut pass = choosing.clone();
            let eldest = match &rec.events[bids - 1] {
                Event::Bid { player, .. } => player.clone(),
                _ => unreachable!("the choice is a bid"),
            };
            pass.events.push(Event::Bid { player: eldest.clone(), bid: "pass".into() });
            let v = replay(rules, &pass).expect("replayable");
            assert_eq!(v.violation.as_ref().map(|x| x.rule.to_string()).as_deref(), Some("bidding.instead.trischaken"), "{}", v.to_text());
            pass.description = Some(format!(
                "Breaks bidding.instead.trischaken: eldest, having won with a Single, passes, where he must say Single (to play it) or Trischaken (TG42 \"Bids\"): game {seed} of seed 42 of `galician_fixtures`"
            ));
            write(&root.join("invalid").join("bidding.instead.trischaken.json"), &pass);
            last_trump(rules, &rec, seed, root);
            // The holder of the Pagat announcing the Ultimo in Trischaken, where there are no bonuses.
            let mut ultimo = rec.clone();
            let Some(Event::Deal { hands, .. }) = rec.events.first() else { unreachable!("a deal first") };
            let holder = hands.iter().find(|(_, h)| h.iter().any(|c| c.as_str() == "T1")).map(|(p, _)| p.clone()).expect("the Pagat is dealt");
            ultimo.events.insert(bids, Event::Declare { player: holder.clone(), declaration: "ultimo".into(), cards: vec![] });
            let v = replay(rules, &ultimo).expect("replayable");
            assert_eq!(v.violation.as_ref().map(|x| x.rule.to_string()).as_deref(), Some("declaration.ultimo.allowed"), "{}", v.to_text());
            ultimo.description = Some(format!(
                "Breaks declaration.ultimo.allowed: {holder} announces the Ultimo in Trischaken, where \"there are no bonuses\" (TG42 \"Trischaken\"): game {seed} of seed 42 of `galician_fixtures`"
            ));
            write(&root.join("invalid").join("declaration.ultimo.allowed.json"), &ultimo);
        }
    }
}

/// In the game of Trischaken `rec`: a player plays the Pagat in place of another tarock he played
/// while holding it, which TG42 forbids ("the Pagat must be played as one's last trump").
fn last_trump(rules: &tarot_engine::ir::Ruleset, rec: &GameRecord, seed: u64, root: &Path) {
    let Some(Event::Deal { hands, .. }) = rec.events.first() else { return };
    let holder = hands.iter().find(|(_, h)| h.iter().any(|c| c.as_str() == "T1")).map(|(p, _)| p.clone());
    for (i, e) in rec.events.iter().enumerate() {
        let Event::Play { player, card } = e else { continue };
        if Some(player) != holder.as_ref() || !card.starts_with('T') || card.as_str() == "T1" {
            continue;
        }
        let mut bad = rec.clone();
        bad.events[i] = Event::Play { player: player.clone(), card: "T1".into() };
        bad.events.truncate(i + 1);
        let v = replay(rules, &bad).expect("replayable");
        if v.violation.as_ref().is_some_and(|x| &*x.rule == "play.last-trump") {
            bad.description = Some(format!(
                "Breaks play.last-trump: in Trischaken {player} plays the Pagat at event {i} while holding another tarock; it must be his last (TG42 \"Trischaken\"): game {seed} of seed 42 of `galician_fixtures`"
            ));
            write(&root.join("invalid").join("play.last-trump.json"), &bad);
            return;
        }
    }
    eprintln!("play.last-trump: not found in the game of Trischaken");
}

/// The count in threes (option `count = "threes"`, HT quoting ATT1821 §E.6): 66 to the pack, 34 wins,
/// 33 is the Remi and loses; and a game won in threes with 34 that counted singly falls short of 48.
fn threes(rules: &tarot_engine::ir::Ruleset, root: &Path) {
    let options = BTreeMap::from([("count".to_string(), serde_json::json!("threes"))]);
    let made: Want = |_, o| value(o, "made") == serde_json::json!(true) && num(o, "points") >= 34.0;
    let remi: Want = |_, o| num(o, "points") == 33.0;
    let lost: Want = |_, o| value(o, "made") == serde_json::json!(false) && num(o, "points") < 33.0;
    let just: Want = |_, o| num(o, "points") == 34.0;
    #[rustfmt::skip]
    let cases: [(&str, &str, Want, &str); 4] = [
        ("threes-made", "single", made, "A Single counted in threes (option count = threes): each three its sum less two, 66 to the pack; the declarer's 34 or more win (HT quoting ATT1821 §E.6)"),
        ("threes-remi", "single", remi, "A Single counted in threes with 33 of the 66: the Remi (HT quoting ATT1821 §E.6), which the 1821 rules count against the declarer (HT §3.10): lost"),
        ("threes-lost", "solo", lost, "A Solo counted in threes with fewer than 33: lost, the declarer pays each opponent 40 (TG42 \"Bids\"; the count, HT quoting ATT1821 §E.6)"),
        ("threes-34", "single", just, "A Single counted in threes with exactly 34, the least that wins (HT quoting ATT1821 §E.6); counted singly, the default, the same game is lost: threes-34-singly.json"),
    ];
    for (name, contract, want, what) in cases {
        let sim = SimOptions { contract: ContractChoice::Only(contract.into()), ..SimOptions::steered() };
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let mut found = None;
        for seed in 0..20_000u64 {
            let Ok(rec) = random_game_with(rules, 3, &options, &sim, &mut rng) else { continue };
            let v = replay(rules, &rec).expect("replayable");
            let Some(o) = v.outcome.as_ref().filter(|_| v.status == Status::Valid) else { continue };
            if o.contract.as_deref() != Some(contract) || !want(&rec, o) {
                continue;
            }
            if name == "threes-34" {
                let mut same = rec.clone();
                same.options.remove("count");
                let v = replay(rules, &same).expect("replayable");
                if v.outcome.as_ref().map(|o| value(o, "made")) != Some(serde_json::json!(false)) {
                    continue;
                }
            }
            found = Some((seed, rec));
            break;
        }
        let Some((seed, mut rec)) = found else {
            eprintln!("{name}: not found in 20000 games");
            continue;
        };
        rec.description = Some(format!("{what}: game {seed} of seed 42 of `galician_fixtures threes`"));
        write(&root.join("valid").join(format!("{name}.json")), &rec);
        if name == "threes-34" {
            let mut same = rec.clone();
            same.options.remove("count");
            same.description = Some(format!("The game of threes-34.json counted singly, the default (AW's values, 94 to the pack): short of 48, the Single is lost: game {seed} of seed 42 of `galician_fixtures threes`"));
            write(&root.join("valid").join("threes-34-singly.json"), &same);
        }
    }
}

/// The hold by seniority (option `priority = "seniority"`, HT §3.2): a simulated game in which middle
/// hand holds rear hand's bid, which forehand's hold alone (the default) refuses.
fn seniority(rules: &tarot_engine::ir::Ruleset, root: &Path) {
    let options = BTreeMap::from([("priority".to_string(), serde_json::json!("seniority"))]);
    let contracts: Vec<&str> = rules.bidding.as_ref().expect("bidding").contracts.iter().map(|c| c.name.as_str()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    for seed in 0..20_000u64 {
        let Ok(rec) = random_game_with(rules, 3, &options, &SimOptions::default(), &mut rng) else { continue };
        let v = replay(rules, &rec).expect("replayable");
        if v.status != Status::Valid {
            continue;
        }
        // The first bidder is first hand; a bid equal to the best so far by another player is a hold.
        let mut best: Option<usize> = None;
        let mut first = None;
        let mut middle_holds = false;
        for e in &rec.events {
            if let Event::Bid { player, bid } = e {
                let first = first.get_or_insert_with(|| player.clone());
                let Some(c) = contracts.iter().position(|c| *c == bid.as_str()) else { continue };
                if best == Some(c) && player != first {
                    middle_holds = true;
                }
                best = Some(best.map_or(c, |b| b.max(c)));
            }
        }
        if !middle_holds {
            continue;
        }
        let mut same = rec.clone();
        same.options.remove("priority");
        let refused = replay(rules, &same).expect("replayable");
        assert!(refused.violation.as_ref().is_some_and(|x| x.rule.starts_with("bidding.contract.")), "{}", refused.to_text());
        let mut rec = rec;
        rec.description = Some(format!(
            "The hold by seniority (option priority = seniority; HT §3.2, TG42's \"with priority\" read so): middle hand holds rear hand's bid; under the default (forehand's hold alone) the same bid is refused ({}): game {seed} of seed 42 of `galician_fixtures priority`",
            refused.violation.as_ref().map(|x| x.rule.to_string()).unwrap_or_default()
        ));
        write(&root.join("valid").join("priority-seniority.json"), &rec);
        return;
    }
    eprintln!("priority-seniority: not found in 20000 games");
}

/// Whether a verdict shows a case (given the number of players tied for the most card points).
type Shows = fn(&tarot_engine::Verdict, usize) -> bool;
