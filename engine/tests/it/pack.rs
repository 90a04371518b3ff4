//! The pack's trumps as data (`grammar/REFERENCE.md`, `pack`): a pack of 40 trumps, the Fool as the
//! top trump, a trump order that is not the numbers', tied trumps. The rule files are in
//! `tests/rules/pack/`, each a change of one pack statement to `three.tarot`; the games are random
//! legal games of the simulator, replayed, and short hand-made games whose first trick shows the rule.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::Q;
use tarot_engine::{parse_record, replay, Registry, Status, Verdict};
use tarot_engine::{random_game, random_game_with, SimOptions};
use tarot_engine::{Card, CardSet};

fn ruleset(id: &str) -> &'static Ruleset {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rules/pack");
    REGISTRY.get_or_init(|| Registry::from_dir(&dir).unwrap_or_else(|e| panic!("{e}"))).get(id).unwrap_or_else(|| panic!("no ruleset {id}"))
}

/// A three-player game of `id` (Ann, Bob, Cid; Cid deals, Ann leads): each player holds the cards
/// given and Cid the rest of the trumps, the other cards filling the hands (a third of the pack each)
/// in order; then the plays.
fn game(id: &str, hands: [&[&str]; 3], plays: &[(&str, &str)]) -> Verdict {
    let rec = game_json(id, hands, plays);
    replay(ruleset(id), &parse_record(&rec.to_string()).unwrap()).unwrap()
}

/// The record of `game`, as JSON.
fn game_json(id: &str, hands: [&[&str]; 3], plays: &[(&str, &str)]) -> serde_json::Value {
    let rules = ruleset(id);
    let names = ["Ann", "Bob", "Cid"];
    let mut given: Vec<Vec<String>> = hands.iter().map(|h| h.iter().map(|c| c.to_string()).collect()).collect();
    let listed: CardSet = hands.iter().flat_map(|h| h.iter()).map(|c| rules.pack.parse_card(c).unwrap()).collect();
    let rest = rules.pack.cards.minus(listed);
    given[2].extend(rest.and(rules.pack.trumps()).iter().map(|c| c.to_string()));
    let mut others = rest.minus(rules.pack.trumps()).iter();
    for hand in given.iter_mut() {
        while hand.len() < rules.pack.cards.len() / 3 {
            hand.push(others.next().expect("enough cards").to_string());
        }
    }
    let hands: BTreeMap<&str, &Vec<String>> = names.iter().copied().zip(given.iter()).collect();
    let mut events = vec![serde_json::json!({ "type": "deal", "hands": hands })];
    events.extend(plays.iter().map(|(p, c)| serde_json::json!({ "type": "play", "player": p, "card": c })));
    serde_json::json!({ "ruleset": id, "players": names, "dealer": "Cid", "events": events })
}

/// Compiles `child`, a rule file that `extends three` (tests/rules/pack/three.tarot): nothing, or
/// the compiler's diagnostics.
fn compile_child_of_three(child: &str) -> Result<(), String> {
    let three = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rules/pack/three.tarot")).unwrap();
    let load = |id: &str| match id {
        "three" => Some(tarot_engine::RuleFile { path: "three.tarot".into(), text: three.clone() }),
        "child" => Some(tarot_engine::RuleFile { path: "child.tarot".into(), text: child.to_string() }),
        _ => None,
    };
    tarot_engine::compile("child", &load).map(|_| ()).map_err(|d| d.to_string())
}

/// Who leads the next trick, or the broken rule and its message.
fn after(v: &Verdict) -> String {
    match (&v.violation, &v.next) {
        (Some(x), _) => format!("{}: {}", x.rule, x.message),
        (None, Some(n)) => format!("{} to play", n.player),
        (None, None) => format!("{:?}", v.status),
    }
}

#[test]
fn a_pack_of_forty_trumps_is_dealt_played_and_counted() {
    let rules = ruleset("forty");
    assert_eq!(rules.pack.cards.len(), 97);
    assert_eq!(rules.pack.trumps().len(), 40);
    assert_eq!(rules.card_name(Card::parse("T40").unwrap()), "the Trumpet");
    let mut rng = ChaCha8Rng::seed_from_u64(40);
    let mut seen = CardSet::EMPTY;
    for i in 0..200 {
        let g = random_game(rules, 4, &BTreeMap::new(), &mut rng).unwrap_or_else(|e| panic!("game {i}: {e}"));
        let v = replay(rules, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "game {i}: {:?}", v.violation);
        // Kings, T1, T40 and the Fool 5 each, queens 1, T37 to T39 3, and in groups of one every
        // other card 1: 35 + 4 + 9 + 83.
        let total = v.outcome.as_ref().unwrap().players.iter().fold(Q::ZERO, |a, p| a + p.card_points);
        assert_eq!(total, Q::int(131), "game {i}");
        for t in &v.tricks {
            seen = seen.or(t.cards.iter().copied().collect());
        }
    }
    assert!(seen.contains(Card::parse("T40").unwrap()) && seen.contains(Card::parse("T22").unwrap()), "the high trumps are played");
    // The steered simulator too: strong hands of the highest trumps, played high.
    for i in 0..50 {
        let g = random_game_with(rules, 4, &BTreeMap::new(), &SimOptions::steered(), &mut rng).unwrap_or_else(|e| panic!("steered game {i}: {e}"));
        assert_eq!(replay(rules, &g).unwrap().status, Status::Valid, "steered game {i}");
    }
}

#[test]
fn a_trump_above_the_twenty_first_beats_it() {
    let rules = ruleset("forty");
    let t = |c: &str| Card::parse(c).unwrap();
    assert!(rules.pack.strength[t("T40").0 as usize] > rules.pack.strength[t("T22").0 as usize]);
    assert!(rules.pack.strength[t("T22").0 as usize] > rules.pack.strength[t("T21").0 as usize]);
}

#[test]
fn the_fool_as_a_trump_must_follow_trumps_and_wins() {
    // Bob's only trump is the Sküs: on a trump lead he must play it, and it beats T21.
    let hands: [&[&str]; 3] = [&["T21"], &["EX", "KS"], &[]];
    let v = game("skus", hands, &[("Ann", "T21"), ("Bob", "KS")]);
    assert_eq!(after(&v), "play.must.follow: Bob must follow trumps: holds the Sküs");
    let v = game("skus", hands, &[("Ann", "T21"), ("Bob", "EX"), ("Cid", "T2")]);
    assert_eq!(after(&v), "Bob to play");
    assert_eq!(v.tricks[0].winner.as_ref(), "Bob");
    // Its own code is T22; the record may write either.
    let v = game("skus", hands, &[("Ann", "T21"), ("Bob", "T22"), ("Cid", "T2")]);
    assert_eq!(v.tricks[0].winner.as_ref(), "Bob");
    // It counts as a trump, and as the Fool's name says.
    let rules = ruleset("skus");
    assert_eq!(rules.pack.trumps().len(), 22);
    assert!(!rules.pack.cards.contains(tarot_engine::FOOL));
    assert_eq!(rules.card_name(Card::parse("T1").unwrap()), "the Pagat");
}

#[test]
fn the_fool_as_a_trump_is_dealt_and_played() {
    let rules = ruleset("skus");
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    for i in 0..50 {
        let g = random_game(rules, 3, &BTreeMap::new(), &mut rng).unwrap();
        let v = replay(rules, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "game {i}: {:?}", v.violation);
        let total = v.outcome.as_ref().unwrap().players.iter().fold(Q::ZERO, |a, p| a + p.card_points);
        // Kings and the trull 5 each (the Sküs counted as a trump of the trull), queens 1, and the
        // 67 other cards 1 each.
        assert_eq!(total, Q::int(4 * 5 + 3 * 5 + 4 + 67), "game {i}");
    }
}

#[test]
fn a_trump_order_puts_t20_on_top() {
    let hands: [&[&str]; 3] = [&["T21"], &["T20", "T5"], &[]];
    let v = game("piedmont", hands, &[("Ann", "T21"), ("Bob", "T20"), ("Cid", "T2")]);
    assert_eq!(v.tricks[0].winner.as_ref(), "Bob");
    let v = game("piedmont", hands, &[("Ann", "T21"), ("Bob", "T5")]);
    assert_eq!(after(&v), "play.must.overtrump: Bob must overtrump: holds T20, which beats T21 on the table");
    // Under the numbers' order, T5 is fine: Bob cannot beat T21.
    let v = game("three", hands, &[("Ann", "T21"), ("Bob", "T5")]);
    assert_eq!(after(&v), "Cid to play");
}

#[test]
fn of_tied_trumps_the_later_wins() {
    let hands: [&[&str]; 3] = [&["T18"], &["T17", "T2"], &["T21"]];
    // Bob's T17, played after Ann's T18, takes the trick so far: Cid must beat T17, and T19 and T20,
    // tied with it, do.
    let v = game("moors", hands, &[("Ann", "T18"), ("Bob", "T17"), ("Cid", "T3")]);
    assert_eq!(after(&v), "play.must.overtrump: Cid must overtrump: holds T19, T20, T21, which beat T17 on the table");
    let v = game("moors", hands, &[("Ann", "T18"), ("Bob", "T17"), ("Cid", "T19")]);
    assert_eq!(v.tricks[0].winner.as_ref(), "Cid");
    // T17, played after T18, beats it: Bob must overtrump with it.
    let v = game("moors", hands, &[("Ann", "T18"), ("Bob", "T2")]);
    assert_eq!(after(&v), "play.must.overtrump: Bob must overtrump: holds T17, which beats T18 on the table");
    // A higher trump still beats them.
    let v = game("moors", hands, &[("Ann", "T18"), ("Bob", "T17"), ("Cid", "T21")]);
    assert_eq!(v.tricks[0].winner.as_ref(), "Cid");
    // Without the tie, T17 does not beat T18, and Bob may play T2.
    let v = game("three", hands, &[("Ann", "T18"), ("Bob", "T2")]);
    assert_eq!(after(&v), "Cid to play");
}

#[test]
fn with_empty_zero_only_the_counters_count_and_points_of_reads_a_card() {
    let rules = ruleset("honours");
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut paid = 0;
    for i in 0..50 {
        let g = random_game(rules, 3, &BTreeMap::new(), &mut rng).unwrap();
        let v = replay(rules, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "game {i}: {:?}", v.violation);
        // Kings, T1, T21 and the Excuse 5 each, queens 1, nothing else (in `three`, 78 more).
        let total = v.outcome.as_ref().unwrap().players.iter().fold(Q::ZERO, |a, p| a + p.card_points);
        assert_eq!(total, Q::int(7 * 5 + 4), "game {i}");
        for e in v.ledger.iter().filter(|e| &*e.label == "honour played") {
            assert_eq!(e.amount, Q::int(5), "game {i}");
            paid += 1;
        }
    }
    assert!(paid > 0);
}

/// The card points of all players together in 20 seeded simulated three-player games of `rules`
/// with option `name` set to `value`, each game replayed valid.
fn card_point_totals(rules: &tarot_engine::ir::Ruleset, name: &str, value: &str) -> Vec<Q> {
    let options: BTreeMap<String, serde_json::Value> = [(name.to_string(), serde_json::json!(value))].into();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    (0..20)
        .map(|_| {
            let v = replay(rules, &random_game(rules, 3, &options, &mut rng).unwrap()).unwrap();
            assert_eq!(v.status, Status::Valid);
            v.outcome.as_ref().unwrap().players.iter().fold(Q::ZERO, |a, p| a + p.card_points)
        })
        .collect()
}

#[test]
fn a_counter_follows_an_option() {
    let rules = ruleset("petit-value");
    let totals = |petit: &str| card_point_totals(rules, "petit", petit);
    // Seven cards of 5 and the queens of 1, the 67 others 1: the Petit worth 5, or 2.
    assert!(totals("five").iter().all(|t| *t == Q::int(35 + 4 + 67)));
    assert!(totals("one").iter().all(|t| *t == Q::int(30 + 2 + 4 + 67)));
}

#[test]
fn a_counter_that_follows_options_is_checked_for_every_choice() {
    let compile = compile_child_of_three;
    let head = "ruleset child \"c\"\nextends three\noption petit \"p\" = [\"five\", \"one\"]\n";
    assert_eq!(compile(&format!("{head}counting {{\n  counter 2 = if option.petit == \"one\" then T2 else none\n}}\n")), Ok(()));
    let twice = compile(&format!("{head}counting {{\n  counter 2 = if option.petit == \"one\" then T2 else T21\n}}\n")).unwrap_err();
    assert!(twice.contains("with option.petit = \"five\": T21 already has a value"), "{twice}");
    let other = compile(&format!("{head}counting {{\n  counter 2 = if option.petit == \"one\" and count(players) == 3 then T2 else none\n}}\n")).unwrap_err();
    assert!(other.contains("may follow options, and nothing else"), "{other}");
}

#[test]
fn a_group_follows_an_option() {
    let rules = ruleset("group-option");
    assert_eq!(rules.counting.group, 1, "the default options' group");
    let totals = |count: &str| card_point_totals(rules, "count", count);
    // Seven cards of 5 and 71 of 1: 106 counted singly; in threes each 5 is worth 4 1/3 and each
    // other card 1/3, 91/3 + 71/3 = 54.
    assert!(totals("single").iter().all(|t| *t == Q::int(106)));
    assert!(totals("threes").iter().all(|t| *t == Q::int(54)));
}

#[test]
fn a_group_that_follows_options_is_checked_for_every_choice() {
    let compile = compile_child_of_three;
    let head = "ruleset child \"c\"\nextends three\noption count \"c\" = [\"single\", \"threes\"]\n";
    assert_eq!(compile(&format!("{head}counting {{\n  group = if option.count == \"threes\" then 3 else 1\n}}\n")), Ok(()));
    let seven = compile(&format!("{head}counting {{\n  group = if option.count == \"threes\" then 7 else 1\n}}\n")).unwrap_err();
    assert!(seven.contains("with option.count = \"threes\": `group = formula` must give a whole number of cards from 1 to 6"), "{seven}");
    let fixed = compile(&format!("{head}counting {{\n  group = 3\n}}\n")).unwrap_err();
    assert!(fixed.contains("reads none: write `group N`"), "{fixed}");
    let both = compile(&format!("{head}counting {{\n  group 3 = if option.count == \"threes\" then 3 else 1\n}}\n")).unwrap_err();
    assert!(both.contains("not both"), "{both}");
    let empty = compile(&format!("{head}counting {{\n  group = if option.count == \"threes\" then 3 else 1\n  empty 0\n}}\n")).unwrap_err();
    assert!(empty.contains("with option.count = \"threes\": groups of 3, but `empty 0`"), "{empty}");
    let other = compile(&format!("{head}counting {{\n  group = if option.count == \"threes\" and count(players) == 3 then 3 else 1\n}}\n")).unwrap_err();
    assert!(other.contains("may follow options, and nothing else"), "{other}");
}

#[test]
fn the_description_says_what_the_trumps_and_counters_are() {
    let text = |id: &str, options: &[(&str, &str)]| {
        let options: BTreeMap<String, serde_json::Value> = options.iter().map(|(k, v)| (k.to_string(), serde_json::json!(v))).collect();
        tarot_engine::describe(ruleset(id), &options).rules.iter().map(|l| l.text.clone()).collect::<Vec<_>>().join("\n")
    };
    let forty = text("forty", &[]);
    assert!(forty.contains("97 cards: suits spades, hearts, diamonds, clubs, 40 trumps, the Excuse\n"), "{forty}");
    assert!(forty.contains("trumps high to low: T40 (the Trumpet) T39 T38"), "{forty}");
    let skus = text("skus", &[]);
    assert!(skus.contains("78 cards: suits spades, hearts, diamonds, clubs, 22 trumps\n"), "{skus}");
    assert!(skus.contains("trumps high to low: T22 (the Sküs) T21 (the Mond) T20"), "{skus}");
    assert!(skus.contains("records may write EX for T22"), "{skus}");
    assert!(text("piedmont", &[]).contains("trumps high to low: T20 T21 T19 T18"));
    // The trump suit is named among the trumps, not among the suits.
    let german = text("german", &[]);
    assert!(german.contains("36 cards: suits leaves, bells, acorns, 9 trumps\n"), "{german}");
    assert!(german.contains("trumps high to low: T9 (deuce of hearts) T8 (10 of hearts) T7 (king of hearts)"), "{german}");
    assert!(german.contains("records may write KH for T7"), "{german}");
    assert!(german.contains("ranks high to low: leaves: 1 10 K Q J 9 8 7 6; bells: 1 10 K Q J 9 8 7 6; acorns:"), "{german}");
    let moors = text("moors", &[]);
    assert!(moors.contains("T21 T20 = T19 = T18 = T17 T16"), "{moors}");
    assert!(moors.contains("of the tied trumps T17 T18 T19 T20, the later played wins"), "{moors}");
    // The usual pack is described as it always was.
    assert!(text("three", &[]).contains("78 cards: suits spades, hearts, diamonds, clubs, 21 trumps, the Excuse\nranks high to low"));
    assert!(text("honours", &[]).contains("other cards nothing"));
    assert!(text("petit-value", &[("petit", "one")]).contains("2 for T1"), "{}", text("petit-value", &[("petit", "one")]));
    assert!(!text("petit-value", &[]).contains("2 for T1"));
    let threes = text("group-option", &[("count", "threes")]);
    assert!(threes.contains("in groups of 3 (with these options; `group = if option.count == \"threes\" then 3 else 1`)"), "{threes}");
    assert!(threes.contains("pack total 54"), "{threes}");
    assert!(text("group-option", &[]).contains("in groups of 1 (with these options"));
}

#[test]
fn the_fool_follows_an_option() {
    let rules = ruleset("skus-option");
    let skus = |choice: &str| -> BTreeMap<String, serde_json::Value> { [("skus".to_string(), serde_json::json!(choice))].into() };
    // The default is the Excuse; the other choice is the ruleset compiled with the Fool a trump.
    assert!(rules.pack.cards.contains(tarot_engine::FOOL));
    assert!(std::ptr::eq(rules.with_pack_for(3, &BTreeMap::new()).unwrap(), rules));
    assert!(std::ptr::eq(rules.with_pack_for(3, &skus("excuse")).unwrap(), rules));
    let trump = rules.with_pack_for(3, &skus("trump")).unwrap();
    assert!(!trump.pack.cards.contains(tarot_engine::FOOL));
    assert_eq!(trump.pack.trumps().len(), 22);
    // Random games under each choice replay valid, and the Fool, written EX, is played as what it is.
    for choice in ["excuse", "trump"] {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for i in 0..20 {
            let g = random_game(rules, 3, &skus(choice), &mut rng).unwrap();
            let v = replay(rules, &g).unwrap();
            assert_eq!(v.status, Status::Valid, "{choice} game {i}: {:?}", v.violation);
        }
    }
    // Bob's only trump is the Fool: on a trump lead he must play it when it is a trump, and it wins;
    // as the Excuse he may keep it and play his king.
    let hands: [&[&str]; 3] = [&["T21"], &["EX", "KS"], &[]];
    let as_excuse = game("skus-option", hands, &[("Ann", "T21"), ("Bob", "KS")]);
    assert_eq!(after(&as_excuse), "Cid to play");
    let mut with_trump = game_json("skus-option", hands, &[("Ann", "T21"), ("Bob", "KS")]);
    with_trump["options"] = serde_json::json!({ "skus": "trump" });
    let v = replay(rules, &parse_record(&with_trump.to_string()).unwrap()).unwrap();
    assert_eq!(after(&v), "play.must.follow: Bob must follow trumps: holds the Sküs");
}

#[test]
fn a_fool_that_follows_an_option_is_checked() {
    let compile = compile_child_of_three;
    let head = "ruleset child \"c\"\nextends three\noption skus \"s\" = [\"excuse\", \"trump\"]\n";
    assert_eq!(compile(&format!("{head}pack {{\n  fool \"the Sküs\" trump = option.skus == \"trump\"\n}}\n")), Ok(()));
    let no_option = compile(&format!("{head}pack {{\n  fool \"the Sküs\" trump = count(players) == 3\n}}\n")).unwrap_err();
    assert!(no_option.contains("reads no option") || no_option.contains("must be yes or no"), "{no_option}");
    let no_trump = compile(&format!("{head}pack {{\n  fool \"the Sküs\" = option.skus == \"trump\"\n}}\n")).unwrap_err();
    assert!(no_trump.contains("the word `trump` is missing"), "{no_trump}");
    // The other pack is checked too: a class naming T22 fails where the Fool is the Excuse.
    let t22 = compile(&format!("{head}pack {{\n  fool \"the Sküs\" trump = option.skus == \"excuse\"\n}}\nclass top = T22\n")).unwrap_err();
    assert!(t22.contains("with the Fool as"), "{t22}");
}

/// The Excuse's rules (`fool { ... }`) where the Fool is a trump: refused where it is a trump under
/// every choice of the options (they would never apply), kept where an option makes it a trump, the
/// description then saying under which choice they hold and under which they do not.
#[test]
fn the_excuse_rules_apply_only_while_the_fool_is_the_excuse() {
    let compile = compile_child_of_three;
    let head = "ruleset child \"c\"\nextends three\noption skus \"s\" = [\"excuse\", \"trump\"]\n";
    // A trump whatever the options, with three's `fool { ... }` inherited: refused, saying why and
    // what to write; without it, accepted.
    let always = compile("ruleset child \"c\"\nextends three\npack {\n  fool \"the Sküs\" trump\n}\n").unwrap_err();
    assert!(always.contains("the `fool { ... }` rules are the Excuse's, and the Sküs is a trump") && always.contains("`without fool`"), "{always}");
    assert_eq!(compile("ruleset child \"c\"\nextends three\nwithout fool\npack {\n  fool \"the Sküs\" trump\n}\n"), Ok(()));
    // A condition that reads an option but is yes for every choice: the same.
    let every = compile(&format!("{head}pack {{\n  fool \"the Sküs\" trump = option.skus == \"trump\" or option.skus == \"excuse\"\n}}\n")).unwrap_err();
    assert!(every.contains("would never apply"), "{every}");
    // A pack with no Fool at all.
    let none = compile("ruleset child \"c\"\nextends three\npack {\n  without fool\n}\n").unwrap_err();
    assert!(none.contains("the pack has no Fool"), "{none}");
    // By an option: accepted, and said in words under each choice.
    let rules = ruleset("skus-option");
    let text = |options: &[(&str, &str)]| {
        let options = options.iter().map(|(k, v)| (k.to_string(), serde_json::json!(v))).collect();
        tarot_engine::describe(rules, &options).to_text()
    };
    let excuse = text(&[]);
    assert!(excuse.contains("these rules hold while the Sküs is the Excuse: with skus = \"trump\" it is a trump, and they do not apply"), "{excuse}");
    let trump = text(&[("skus", "trump")]);
    assert!(trump.contains("the Sküs is a trump with these options: the rules of the Excuse (the fool section) do not apply; with skus = \"excuse\" they do"), "{trump}");
    assert!(!trump.contains("may be played to any trick instead of obeying"), "{trump}");
}

/// Where an option changes the pack, the description shows the other pack too, named by the choice
/// that makes it: a comparison with another game sees both.
#[test]
fn the_description_shows_the_pack_under_each_choice() {
    let rules = ruleset("skus-option");
    let pack_lines = |options: &[(&str, &str)]| -> Vec<String> {
        let options = options.iter().map(|(k, v)| (k.to_string(), serde_json::json!(v))).collect();
        tarot_engine::describe(rules, &options).rules.iter().filter(|l| l.aspect == "pack and ranks").map(|l| l.text.clone()).collect()
    };
    let excuse = pack_lines(&[]);
    assert!(excuse.iter().any(|l| l.starts_with("with skus = \"trump\": ") && l.contains("22 trumps")), "{excuse:#?}");
    assert!(excuse.iter().any(|l| l.starts_with("with skus = \"trump\": trumps high to low: T22 (the Sküs)")), "{excuse:#?}");
    let trump = pack_lines(&[("skus", "trump")]);
    assert!(trump.iter().any(|l| l.starts_with("with skus = \"excuse\": ") && l.contains("21 trumps, the Sküs")), "{trump:#?}");
    // A pack that follows no option has no such line.
    assert!(tarot_engine::describe(ruleset("skus"), &BTreeMap::new()).rules.iter().all(|l| !l.text.starts_with("with ")));
}

#[test]
fn a_suit_of_permanent_trumps_is_the_packs_trumps() {
    let rules = ruleset("german");
    let t = |c: &str| rules.pack.parse_card(c).unwrap();
    assert_eq!(rules.pack.cards.len(), 36);
    assert_eq!(rules.pack.trumps().len(), 9);
    // The suit's first rank is the top trump; each card may be written by its suit code or its trump code.
    assert_eq!(t("1H"), Card::parse("T9").unwrap());
    assert_eq!(t("KH"), Card::parse("T7").unwrap());
    assert_eq!(t("6H"), Card::parse("T1").unwrap());
    assert_eq!(rules.card_name(t("KH")), "king of hearts");
    assert_eq!(rules.card_name(t("1H")), "deuce of hearts");
    assert!(rules.pack.strength[t("10H").0 as usize] > rules.pack.strength[t("KH").0 as usize]);
    // The plain suits keep their order: the deuce, then the ten, above the king.
    assert!(rules.pack.strength[t("10S").0 as usize] > rules.pack.strength[t("KS").0 as usize]);
    assert!(rules.pack.strength[t("1S").0 as usize] > rules.pack.strength[t("10S").0 as usize]);
}

#[test]
fn the_trump_suit_follows_and_wins_as_trumps() {
    // Ann leads the deuce of leaves; Bob, with no leaves, must trump, and his six of hearts wins.
    let hands: [&[&str]; 3] = [&["1S"], &["6H", "1D", "10D", "KD", "QD", "JD", "9D", "8D", "7D", "6D", "1C", "10C"], &["KS"]];
    let v = game("german", hands, &[("Ann", "1S"), ("Bob", "1D")]);
    assert_eq!(after(&v), "play.must.trump: Bob has no leaves and must trump: holds 6 of hearts");
    let v = game("german", hands, &[("Ann", "1S"), ("Bob", "6H"), ("Cid", "KS")]);
    assert_eq!(v.tricks[0].winner.as_ref(), "Bob");
    // Bob, who took the trick, leads the next.
    let v = game("german", hands, &[("Ann", "1S"), ("Bob", "6H"), ("Cid", "KS"), ("Bob", "1D")]);
    assert_eq!(after(&v), "Cid to play");
    // On a heart led, a player holding hearts follows with them: they are the trumps.
    let lead_heart: [&[&str]; 3] = [&["KH"], &["6H", "1D"], &[]];
    let v = game("german", lead_heart, &[("Ann", "KH"), ("Bob", "1D")]);
    assert_eq!(after(&v), "play.must.follow: Bob must follow trumps: holds 6 of hearts");
    // The ten of hearts, written by either code, beats the king.
    let v = game("german", lead_heart, &[("Ann", "KH"), ("Bob", "6H"), ("Cid", "T8")]);
    assert_eq!(v.tricks[0].winner.as_ref(), "Cid");
    let v = game("german", lead_heart, &[("Ann", "KH"), ("Bob", "6H"), ("Cid", "10H")]);
    assert_eq!(v.tricks[0].winner.as_ref(), "Cid");
}

#[test]
fn a_pack_with_a_trump_suit_is_dealt_played_and_counted() {
    let rules = ruleset("german");
    let mut rng = ChaCha8Rng::seed_from_u64(36);
    for i in 0..100 {
        let g = random_game(rules, 3, &BTreeMap::new(), &mut rng).unwrap_or_else(|e| panic!("game {i}: {e}"));
        let v = replay(rules, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "game {i}: {:?}", v.violation);
        // The Skat count: 30 a suit, the hearts counted by their codes as the others by rank.
        let total = v.outcome.as_ref().unwrap().players.iter().fold(Q::ZERO, |a, p| a + p.card_points);
        assert_eq!(total, Q::int(120), "game {i}");
    }
}

#[test]
fn a_trump_suit_is_refused_beside_trumps_or_as_a_plain_suit() {
    let base = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rules/pack/german.tarot")).unwrap();
    let compile_text = |text: String| {
        let load = |id: &str| (id == "german").then(|| tarot_engine::RuleFile { path: "german.tarot".into(), text: text.clone() });
        tarot_engine::compile("german", &load).map(|_| ()).map_err(|d| d.to_string())
    };
    assert_eq!(compile_text(base.clone()), Ok(()));
    let with_trumps = base.replace("  rank-name 1", "  trumps 21\n  rank-name 1");
    assert!(compile_text(with_trumps).unwrap_err().contains("the pack gives no `trumps N` beside it"));
    let also_plain = base.replace("  rank-name 1", "  suit H \"hearts\" 1 10 K\n  rank-name 1");
    assert!(compile_text(also_plain).unwrap_err().contains("suit H is the trump suit"));
    let no_ranks = base.replace("trump-suit H \"hearts\" 1 10 K Q J 9 8 7 6", "trump-suit H \"hearts\"");
    assert!(compile_text(no_ranks).unwrap_err().contains("names the suit whose cards are the trumps"));
    let reversed = base.replace("  rank-name 1", "  reversed H D = yes\n  rank-name 1");
    assert!(compile_text(reversed).unwrap_err().contains("`reversed` does not apply to it"));
    // A code of its own for a heart is refused: the heart already has one.
    let coded = base.replace("  rank-name 1", "  code KH T1\n  rank-name 1");
    assert!(compile_text(coded).unwrap_err().contains("`KH` is already the code of KH"));
}

/// A short packet counted by its rule.
mod short_packets {
    use tarot_engine::ir::ShortPacket;
    use tarot_engine::testing::count_packets;

    /// A short packet under each rule: Marolles' packet of one or two in threes, and Troccas' Skat of
    /// two in fours (Berther §3: two empties 1, a counter and an empty its value, the cavalier and the
    /// queen 3 + 4 - 1 = 6).
    #[test]
    fn a_short_packet_counts_by_its_rule() {
        use ShortPacket::*;
        for (counters, empties, g, rule, points) in [
            (&[][..], 2, 4, SumLessOne, 1),
            (&[5][..], 1, 4, SumLessOne, 5),
            (&[3, 4][..], 0, 4, SumLessOne, 6),
            (&[3, 4][..], 0, 4, OverHalf, 5),
            (&[][..], 2, 4, OverHalf, 0),
            (&[5][..], 1, 3, OverHalf, 5),
            (&[5][..], 0, 3, OverHalf, 4),
            (&[5][..], 0, 3, SumLessOne, 5),
            // Full packets are counted alike under both rules.
            (&[5][..], 3, 4, SumLessOne, 5),
            (&[5][..], 3, 4, OverHalf, 5),
        ] {
            assert_eq!(count_packets(counters, empties, g, rule), points, "{counters:?} + {empties} empties in groups of {g}, {rule:?}");
        }
    }
}
