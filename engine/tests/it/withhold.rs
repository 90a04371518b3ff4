//! A trump a player may withhold (`tests/rules/withhold.tarot`, Basic Tarot where the 21 alone need not
//! be given where a trump is due, then is kept to the last trick and played there as the Excuse:
//! `withhold`, `keep ... = has(withheld(player), T21)`, `excuse`). Under it, the simulator's games
//! that withhold the 21 are valid, the verdict notes it, the 21 takes no trick at the end and goes back
//! to its player for an empty card; under `basic` the same card is refused where it withheld the 21.
//! Without `excuse`, the 21 withheld keeps its rank at the end. Steered (`SimOptions::withhold`), the
//! simulator holds the 21 back until it withholds it. Troggu's Bättler is said so
//! (`rulesets/troggu.tarot`), its `EX` naming the Fool made a trump.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{random_game, random_game_with, SimOptions};
use tarot_engine::{replay, Card, CardSet, Event, GameRecord, Status, Verdict};

const ID: &str = "withhold";

/// The test rule file, changed as `edit` says.
fn rules(edit: Option<(&str, &str)>) -> Ruleset {
    common::test_rules(ID, edit).unwrap_or_else(|e| panic!("{e}"))
}

/// Seeded games of four under `r` that withhold the 21, with their verdicts.
fn withholding_games(r: &Ruleset) -> Vec<(u64, GameRecord, Verdict)> {
    let mut out = vec![];
    for seed in 0..300 {
        let g = random_game(r, 4, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(r, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "seed {seed}: {:?}", v.violation);
        if v.notes.iter().any(|n| n.contains(" withholds T21")) {
            out.push((seed, g, v));
        }
    }
    out
}

/// The plays of a game: (event, player, card).
fn plays(g: &GameRecord) -> Vec<(usize, String, String)> {
    g.events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            Event::Play { player, card } => Some((i, player.to_string(), card.to_string())),
            _ => None,
        })
        .collect()
}

#[test]
fn the_21_alone_is_withheld_kept_and_played_as_the_excuse() {
    let (r, basic) = (rules(None), common::rules("basic", &[]));
    let games = withholding_games(&r);
    assert!(games.len() >= 3, "{} games withheld the 21", games.len());
    let mut went_back = 0;
    for (seed, g, v) in &games {
        let note = v.notes.iter().find(|n| n.starts_with("the 21 as his only trump (play.withhold.the-21-as-his-only-trump): ")).unwrap();
        let who = note.split(": ").nth(1).unwrap().split(" withholds").next().unwrap();
        // Kept to the last trick, where it takes nothing.
        let last = v.tricks.last().unwrap();
        let at = last.cards.iter().position(|c| c.to_string() == "T21").unwrap_or_else(|| panic!("seed {seed}: the 21 not in the last trick"));
        let holder = &plays(g)[plays(g).len() - 4 + at].1;
        assert_eq!(holder, who, "seed {seed}");
        assert_ne!(&*last.winner, who, "seed {seed}: the 21 withheld took the last trick");
        if v.notes
            .iter()
            .any(|n| n.contains(&format!("played as the Excuse, takes no trick: it goes back from trick {} to {who}, who gives {} an empty card", v.tricks.len(), last.winner)))
        {
            went_back += 1;
        }
        // Under basic, the card that withheld it is refused: a trump was due.
        let mut under_basic = g.clone();
        under_basic.ruleset = "basic".into();
        let b = replay(&basic, &under_basic).unwrap();
        let rule = b.violation.as_ref().map(|x| x.rule.to_string()).unwrap_or_default();
        assert!(rule == "play.must.trump" || rule == "play.must.follow", "seed {seed}: {rule}");
        assert!(b.violation.unwrap().message.contains("T21"), "seed {seed}");
    }
    // Each for himself: the 21 goes back to its player whoever takes the last trick.
    assert_eq!(went_back, games.len());
}

/// The verdict says where the 21 played as the Excuse goes (`not_taken`), and a page's piles follow
/// it: the 21 is in its player's pile, not in the pile of the winner of the last trick.
#[test]
fn the_21_played_as_the_excuse_is_drawn_in_its_player_s_pile() {
    let r = rules(None);
    let games = withholding_games(&r);
    assert!(!games.is_empty());
    for (seed, g, v) in &games {
        let last = v.tricks.last().unwrap();
        let x = last.not_taken.iter().find(|x| x.code == "T21").unwrap_or_else(|| panic!("seed {seed}: {:?}", last.not_taken));
        assert!(x.for_empty_card, "seed {seed}");
        assert_ne!(x.to, last.winner, "seed {seed}");
        let drawing = tarot_engine::draw_game(Some(&r), g, v);
        let piles = drawing.taken_after(&r, v.tricks.len());
        let holder = |c: Card| piles.iter().find(|(_, set)| set.contains(c)).map(|(p, _)| p.clone());
        assert_eq!(holder(Card::parse("T21").unwrap()).as_deref(), Some(&*x.to), "seed {seed}");
        let e = drawing.tricks.last().unwrap().excuse.as_ref().unwrap_or_else(|| panic!("seed {seed}: no excuse drawn"));
        assert!(e.exchange.is_some(), "seed {seed}: {e:?}");
        assert_eq!(e.clause.as_ref().map(|c| &*c.rule), Some("play.excuse.the-21-withheld-takes-no-trick"), "seed {seed}");
    }
}

#[test]
fn without_excuse_the_21_withheld_keeps_its_rank_and_without_keep_it_may_be_played_at_once() {
    let r = rules(None);
    let ranked = rules(Some(("  excuse T21 \"the 21 withheld takes no trick\" = has(withheld(player), T21)\n", "")));
    let (seed, g, _) = withholding_games(&r).into_iter().next().unwrap();
    let v = replay(&ranked, &GameRecord { ruleset: "withhold".into(), ..g.clone() }).unwrap();
    assert_eq!(v.status, Status::Valid, "seed {seed}");
    let last = v.tricks.last().unwrap();
    let at = last.cards.iter().position(|c| c.to_string() == "T21").unwrap();
    assert_eq!(*last.winner, plays(&g)[plays(&g).len() - 4 + at].1, "seed {seed}: the 21 takes the last trick");
    assert!(!v.notes.iter().any(|n| n.contains("played as the Excuse")), "seed {seed}");
    // Played at the first card after it is withheld: refused while kept, allowed without `keep`.
    let loose = rules(Some(("  keep T21 \"the 21 withheld to the last trick\" = has(withheld(player), T21)\n", "")));
    let ps = plays(&g);
    let withheld_at =
        ps.iter().position(|(i, ..)| replay(&r, &GameRecord { events: g.events[..=*i].to_vec(), ..g.clone() }).unwrap().notes.iter().any(|n| n.contains(" withholds "))).unwrap();
    let who = ps[withheld_at].1.clone();
    let (next, ..) = ps[withheld_at + 1..].iter().find(|(_, p, _)| *p == who).cloned().unwrap();
    let mut early = g.clone();
    early.events.truncate(next + 1);
    early.events[next] = Event::Play { player: who.as_str().into(), card: "T21".into() };
    let kept = replay(&r, &early).unwrap();
    let broken = kept.violation.unwrap_or_else(|| panic!("seed {seed}: the 21 played early"));
    assert_eq!(&*broken.rule, "play.keep.the-21-withheld-to-the-last-trick", "seed {seed}");
    assert!(broken.message.contains(&format!("{who} may not play T21 while he holds")), "{}", broken.message);
    let free = replay(&loose, &early).unwrap();
    assert_eq!(free.status, Status::InProgress, "seed {seed}: {:?}", free.violation);
}

#[test]
fn a_card_withheld_is_a_trump_of_a_section_with_a_trump_obligation() {
    let err = |play: &str| common::compile_error(&format!("ruleset t \"t\"\nextends basic\nplay {{\n{play}\n}}\n"));
    assert_eq!(err("  withhold T21 \"x\" = player == dealer"), "");
    assert!(err("  withhold KS \"x\"").contains("KS is no trump of this pack"));
    assert!(err("  withhold T21").contains("`withhold` is written `withhold CARDS \"label\" [= condition]`"), "{}", err("  withhold T21"));
    assert!(err("  excuse EX \"x\"").contains("EX is this pack's Excuse already"));
    assert_eq!(err("  excuse T1 \"x\" = count(tricks) > 3"), "");
    let none = common::compile_error("ruleset t \"t\"\nextends basic\nplay {\n  without must follow\n  without must trump\n  withhold T21 \"x\"\n}\n");
    assert!(none.contains("neither `must follow` nor `must trump`: it would never apply"), "{none}");
}

/// Steered to withhold (`SimOptions::withhold`), a holder of the 21 keeps it back while another card
/// is legal, and so withholds it wherever he can: many more games withhold it than unsteered.
#[test]
fn the_simulator_steered_holds_the_21_back_until_it_is_withheld() {
    let r = rules(None);
    let withheld = |sim: &SimOptions| {
        (0..200)
            .filter(|&seed| {
                let g = random_game_with(&r, 4, &BTreeMap::new(), sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
                let v = replay(&r, &g).unwrap();
                assert_eq!(v.status, Status::Valid, "seed {seed}: {:?}", v.violation);
                v.notes.iter().any(|n| n.contains(" withholds T21"))
            })
            .count()
    };
    let (plain, steered) = (withheld(&SimOptions::default()), withheld(&SimOptions { withhold: 1.0, ..SimOptions::default() }));
    println!("games of 200 that withhold the 21: {plain} unsteered, {steered} steered");
    assert!(steered > 2 * plain, "{plain} unsteered, {steered} steered");
}

/// In Troggu, `EX` is the Bättler, the Fool made the trump above the 21 (T22).
#[test]
fn troggus_ex_names_the_battler() {
    let t = common::rules("troggu", &[]);
    let battler = CardSet::single(Card::trump(22));
    assert_eq!(t.play.withholds[0].cards, battler);
    assert_eq!(t.play.excuses[0].cards, battler);
}

#[test]
fn the_rules_say_in_words_what_is_withheld_and_played_as_the_excuse() {
    let t = common::rules("troggu", &[]);
    let (d, people) = (tarot_engine::describe(&t, &BTreeMap::new()), tarot_engine::describe_for_people(&t, &BTreeMap::new()));
    let text = |d: &tarot_engine::Description, rule: &str| d.rules.iter().find(|l| &*l.rule == rule).map(|l| l.text.clone()).unwrap_or_else(|| panic!("no {rule}"));
    assert_eq!(
        text(&d, "play.withhold.the-fool-as-his-only-trump"),
        "the Fool as his only trump: a player whose only trump is der Bättler need not play it where a trump is due (trumps led, or none of the suit led); he may play another card instead, and so withholds it"
    );
    assert_eq!(
        text(&d, "play.excuse.the-fool-withheld-takes-no-trick"),
        "the Fool withheld takes no trick: der Bättler is played as the Excuse, when has(withheld(player), EX): it obeys no obligation, sets no suit (the next card does), takes no trick, and stays with its player's side, who gives the trick's winner an empty card for it"
    );
    assert_eq!(
        text(&people, "play.keep.the-fool-withheld-to-the-last-trick"),
        "the Fool withheld to the last trick: der Bättler may not be led or played while other cards are held, when what the player withheld from the trump obligations holds der Bättler"
    );
}
