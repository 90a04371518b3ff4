//! Forced and kept cards that read the play so far (`tests/rules/trick-in-play.tarot`, Basic Tarot
//! whose `must lead` reads `tricks` and `leading_card(t)`, and whose `keep`s read the trick in play:
//! `count(trick)`, `leading_card(trick)`, `pile(trick)`): each binds where its condition holds and
//! only there, read at the card being played (the first of a trick or a later one); the refusal
//! cites the rule; the names are refused outside the turn's conditions; the simulator plays by them.

use crate::common;

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::{replay, Event, GameRecord};

const ID: &str = "trick-in-play";

/// A player's turn in a seeded game: the record before his card, what is on the table, the cards
/// that led the tricks played, and his legal cards under the test rules and under Basic Tarot.
#[derive(Clone)]
struct Turn {
    record: GameRecord,
    player: String,
    table: Vec<String>,
    leads: Vec<String>,
    legal: Vec<String>,
    free: Vec<String>,
}

impl Turn {
    fn is_trump(c: &str) -> bool {
        c.starts_with('T')
    }
    /// How many of the tricks played a trump led.
    fn trump_leads(&self) -> usize {
        self.leads.iter().filter(|c| Self::is_trump(c)).count()
    }
}

/// Every turn of the seeded games `0..12`, played with random legal cards under the test rules.
fn turns(r: &Ruleset, basic: &Ruleset) -> Vec<Turn> {
    let mut out = vec![];
    for seed in 0..12 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut g = random_game(r, 4, &BTreeMap::new(), &mut rng).unwrap();
        let first = g.events.iter().position(|e| matches!(e, Event::Play { .. })).unwrap();
        g.events.truncate(first);
        let mut plays: Vec<String> = vec![];
        while let Some(next) = replay(r, &g).unwrap().next {
            let mut under_basic = g.clone();
            under_basic.ruleset = "basic".into();
            let free = replay(basic, &under_basic).unwrap().next.unwrap().legal;
            let done = plays.len() / 4 * 4;
            let card = next.legal.choose(&mut rng).unwrap().clone();
            out.push(Turn {
                record: g.clone(),
                player: next.player.to_string(),
                table: plays[done..].to_vec(),
                leads: plays[..done].iter().step_by(4).cloned().collect(),
                legal: next.legal,
                free,
            });
            g.events.push(Event::Play { player: next.player.as_ref().into(), card: card.as_str().into() });
            plays.push(card);
        }
    }
    out
}

/// The first of `turns` for which `wanted` gives a card.
fn find(turns: &[Turn], wanted: &dyn Fn(&Turn) -> Option<String>) -> Option<(Turn, String)> {
    turns.iter().find_map(|t| wanted(t).map(|c| (t.clone(), c)))
}

/// At every turn where `when` holds, `then` does too; and `when` holds at some turn.
fn always(turns: &[Turn], what: &str, when: &dyn Fn(&Turn) -> bool, then: &dyn Fn(&Turn) -> bool) {
    let seen: Vec<&Turn> = turns.iter().filter(|t| when(t)).collect();
    assert!(!seen.is_empty(), "{what}: no such turn");
    for t in seen {
        assert!(then(t), "{what}: legal {:?}, Basic Tarot's {:?}, on the table {:?}, tricks led by {:?}", t.legal, t.free, t.table, t.leads);
    }
}

/// `card` at `turn` is refused under the test rules with `rule` and a message containing `says`, and
/// accepted under Basic Tarot.
fn refused(r: &Ruleset, basic: &Ruleset, (turn, card): (Turn, String), rule: &str, says: &str) {
    crate::forced_cards::refused_here_accepted_there(r, basic, (turn.record, turn.player, card), rule, says);
}

/// The test rules, Basic Tarot, and every turn of the seeded games.
fn both() -> (Ruleset, Ruleset, Vec<Turn>) {
    let (r, basic) = (common::rules(ID, &[ID]), common::rules("basic", &[]));
    let turns = turns(&r, &basic);
    (r, basic, turns)
}

fn has(cards: &[String], c: &str) -> bool {
    cards.iter().any(|x| x == c)
}

#[test]
fn tricks_and_the_card_that_led_each_decide_a_forced_lead() {
    let (r, basic, turns) = both();
    let trump = |c: &String| Turn::is_trump(c);
    // Before two tricks were led with a trump, a leader holding one and another card leads a trump ...
    let early = |t: &Turn| t.table.is_empty() && t.trump_leads() < 2 && t.free.iter().any(trump) && !t.free.iter().all(trump);
    always(&turns, "a lead before two trump leads", &early, &|t| t.legal.iter().all(trump));
    let c = find(&turns, &|t| early(t).then(|| t.free.iter().find(|c| !trump(c)).cloned()).flatten()).unwrap();
    refused(&r, &basic, c, "play.must.lead.trumps-led-until-two-tricks-were-led-with-one", "must lead");
    // ... and after two (a trump led to a trick played counts, a suit led does not), what he likes.
    let late = |t: &Turn| t.table.is_empty() && t.trump_leads() >= 2 && t.leads.len() > t.trump_leads() && !t.free.iter().all(trump);
    always(&turns, "a lead after two trump leads and a suit led", &late, &|t| t.free.iter().filter(|c| !trump(c)).all(|c| t.legal.contains(c)));
}

#[test]
fn the_trick_in_play_is_read_at_each_card_first_or_later() {
    let (r, basic, turns) = both();
    // `count(trick) == 0`: at every lead, the 1 only when nothing else may be led ...
    let lead = |t: &Turn| t.table.is_empty() && has(&t.free, "T1") && t.free.len() > 1;
    always(&turns, "a lead by the 1's holder", &lead, &|t| !has(&t.legal, "T1") || t.legal == ["T1"]);
    let c = find(&turns, &|t| (lead(t) && !has(&t.legal, "T1")).then(|| "T1".to_string())).expect("the 1 was never held back at a lead");
    refused(&r, &basic, c, "play.keep.the-1-is-never-led", "may not play T1 while he holds");
    // ... and to a trick begun, wherever Basic Tarot allows it.
    always(&turns, "a later card by the 1's holder", &|t| !t.table.is_empty() && has(&t.free, "T1"), &|t| has(&t.legal, "T1"));
}

#[test]
fn the_card_that_led_the_trick_in_play_binds_the_later_cards() {
    let (r, basic, turns) = both();
    let trump_led = |t: &Turn| t.table.first().is_some_and(|c| Turn::is_trump(c));
    // A trump led to the trick in play: the 21 is kept back while another trump may be played ...
    let on_trump = |t: &Turn| trump_led(t) && has(&t.free, "T21") && t.free.iter().any(|c| Turn::is_trump(c) && c != "T21");
    always(&turns, "the 21 with another trump on a trump lead", &on_trump, &|t| !has(&t.legal, "T21"));
    refused(&r, &basic, find(&turns, &|t| on_trump(t).then(|| "T21".to_string())).unwrap(), "play.keep.the-21-not-to-a-trick-a-trump-led", "may not play T21 while he holds");
    // ... and not at a lead (the trick in play has no card that led it yet) nor on a suit led.
    always(&turns, "the 21 at a lead or on a suit", &|t| !trump_led(t) && has(&t.free, "T21"), &|t| has(&t.legal, "T21"));
}

#[test]
fn the_cards_of_the_trick_in_play_bind_a_kept_card() {
    let (r, basic, turns) = both();
    let king = |c: &String| c.starts_with('K');
    let queen_on_table = |t: &Turn| t.table.iter().any(|c| c.starts_with('Q'));
    // A queen on the table: no king while another card may be played ...
    let on_queen = |t: &Turn| queen_on_table(t) && t.free.iter().any(king) && !t.free.iter().all(king);
    always(&turns, "a king on a queen", &on_queen, &|t| !t.legal.iter().any(king));
    refused(
        &r,
        &basic,
        find(&turns, &|t| on_queen(t).then(|| t.free.iter().find(|c| king(c)).cloned()).flatten()).unwrap(),
        "play.keep.no-king-to-a-trick-holding-a-queen",
        "no king to a trick holding a queen",
    );
    // ... none on the table: a king follows as in Basic Tarot.
    always(&turns, "a king on a trick begun without a queen", &|t| !t.table.is_empty() && !queen_on_table(t), &|t| t.free.iter().filter(|c| king(c)).all(|c| t.legal.contains(c)));
}

#[test]
fn the_simulator_plays_by_the_play_so_far() {
    assert!(common::simulated_games_obey(&common::rules(ID, &[ID]), 12) > 0);
}

#[test]
fn the_play_so_far_is_read_only_at_a_turn() {
    let err = |text: &str| common::compile_error(&format!("ruleset t \"t\"\nextends basic\n{text}\n"));
    let play = |cond: &str| err(&format!("play {{\n  keep T21 \"x\" = {cond}\n}}"));
    assert_eq!(play("count(tricks) > 2"), "");
    assert_eq!(play("has(trick, T20) or count(pile(trick), kings) > 0 or has(trumps, leading_card(trick))"), "");
    assert_eq!(play("any(t in tricks where has(kings, leading_card(t)))"), "");
    assert_eq!(err("play {\n  must play kings \"x\" = count(trick) == 3\n}"), "");
    // The trick in play is no name of the score; the card that led a trick is.
    assert!(err("score {\n  term t \"t\" = count(trick)\n}").contains("`trick` is not known in the score"));
    assert_eq!(err("score {\n  term t \"t\" = count(leading_card(last_trick), trumps)\n}"), "");
    // Nor of the other conditions of the play that are not read at a turn.
    assert!(err("play {\n  must trump = count(trick) > 0\n}").contains("`trick` is not known in a setting that applies after the auction"));
    // A name unknown: the error says what a turn's condition may read.
    let e = play("count(trikcs) > 2");
    assert!(e.contains("`trikcs` is not defined") && e.contains("tricks and trick, the trick in play"), "{e}");
    assert!(play("leading_card(trick, T1)").contains("`leading_card` takes 1 argument(s), not 2"));
}

#[test]
fn the_trick_in_play_has_no_winner_yet() {
    // Read from the second trick on, where the tricks played have winners.
    let (rules, mut g) = common::basic_game_with_play("  keep T21 \"x\" = count(tricks) > 0 and winner(trick) == player");
    let first = g.events.iter().position(|e| matches!(e, Event::Play { .. })).unwrap();
    g.events.truncate(first + 5);
    let e = common::rules_mistake(&rules, &g, "play.keep.x");
    assert!(e.message.contains("the trick in play is not over: it has no winner yet"), "{e}");
    assert!(e.to_string().starts_with(&format!("event {}:", first + 4)), "at the second trick's lead: {e}");
}

#[test]
fn two_keeps_of_one_card_with_different_labels_are_two_rules() {
    // The same card kept back by two rules (Dreierles' Pfeife, at Steinmauern and at Iffezheim).
    let err = |play: &str| common::compile_error(&format!("ruleset t \"t\"\nextends basic\nplay {{\n{play}\n}}\n"));
    assert_eq!(err("  keep T1 \"x\" = count(tricks) < 2\n  keep T1 \"y\" = count(trick) == 0"), "");
    assert!(err("  keep T1 \"x\"\n  keep T1 \"x\"").contains("`keep T1 x` is written twice"));
    // The fool's `keep`, which has no words, is still one statement a child replaces.
    assert_eq!(err("}\nfool {\n  keep = \"exchange\""), "");
}
