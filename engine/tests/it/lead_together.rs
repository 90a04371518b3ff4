//! A lead of several cards beginning as many tricks at once (`play { lead-together }`), on Cego's
//! Zwei games (P "The Play"): the declarer plays his two cards in a row, then each defender his two,
//! the first to the first trick; `next` says whose turn it is and shows the trick the card goes to;
//! the verdict's tricks hold the cards sent to each; the third lead goes to the higher winning card,
//! of equal ones to the higher suit; the drawing of the game finds each trick's plays; and the other
//! contracts play their tricks one at a time.

use tarot_engine::{draw_game, replay, Event, GameRecord};

fn read(rel: &str) -> GameRecord {
    tarot_engine::read_record(tarot_testkit::fixture(&format!("cego/{rel}")).as_bytes()).unwrap()
}

/// The events of the plays, in order.
fn plays(rec: &GameRecord) -> Vec<usize> {
    rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).map(|(i, _)| i).collect()
}

fn play(rec: &GameRecord, i: usize) -> (String, String) {
    match &rec.events[i] {
        Event::Play { player, card } => (player.to_string(), card.to_string()),
        _ => unreachable!("a play"),
    }
}

#[test]
fn the_declarer_lays_two_cards_and_each_defender_plays_one_to_each_trick() {
    let rules = tarot_testkit::registry().get("cego").unwrap();
    let rec = read("valid/zwei-leere-higher-card.json");
    let at = plays(&rec);
    let before = |k: usize| {
        let mut g = rec.clone();
        g.events.truncate(at[k]);
        replay(rules, &g).unwrap().next.expect("a card is next")
    };
    // The declarer's second card: his again, to an empty second trick, bound by its `must lead`.
    let declarer = play(&rec, at[0]).0;
    let second = before(1);
    assert_eq!(*second.player, *declarer);
    assert!(second.table.is_empty(), "the second trick is begun by his second card: {:?}", second.table);
    assert!(second.legal.contains(&play(&rec, at[1]).1));
    // Each defender: his first card to the first trick, his second to the second.
    for j in 1..4 {
        let (player, _) = play(&rec, at[2 * j]);
        let first = before(2 * j);
        assert_eq!(*first.player, *player);
        let on_first: Vec<String> = (0..j).map(|q| play(&rec, at[2 * q]).1).collect();
        assert_eq!(first.table.codes().map(str::to_string).collect::<Vec<_>>(), on_first, "the first trick on the table");
        let then = before(2 * j + 1);
        assert_eq!(*then.player, *player, "the same defender plays to the second trick");
        let on_second: Vec<String> = (0..j).map(|q| play(&rec, at[2 * q + 1]).1).collect();
        assert_eq!(then.table.codes().map(str::to_string).collect::<Vec<_>>(), on_second, "the second trick on the table");
    }
    // The tricks: the first cards of each pair, then the second ones.
    let v = replay(rules, &rec).unwrap();
    for (k, trick) in v.tricks.iter().take(2).enumerate() {
        let sent: Vec<String> = (0..4).map(|q| play(&rec, at[2 * q + k]).1).collect();
        assert_eq!(trick.cards.codes().map(str::to_string).collect::<Vec<_>>(), sent, "trick {}", k + 1);
        assert_eq!(*trick.leader, *declarer);
    }
    // The third lead: the winner of the first trick, with the higher card, not the second's.
    assert_ne!(v.tricks[0].winner, v.tricks[1].winner);
    assert_eq!(v.tricks[2].leader, v.tricks[0].winner);
    assert_eq!(*before(8).player, *v.tricks[0].winner);
    // The drawing finds each trick's plays by their cards, though they are interleaved.
    let drawing = draw_game(Some(rules), &rec, &v);
    for (k, trick) in drawing.tricks.iter().take(2).enumerate() {
        let events: Vec<usize> = trick.plays.iter().map(|p| p.event).collect();
        assert_eq!(events, (0..4).map(|q| at[2 * q + k]).collect::<Vec<_>>(), "trick {}", k + 1);
    }
    assert!(drawing.tricks.iter().all(|t| t.plays.len() == 4));
}

#[test]
fn equal_winning_cards_give_the_third_lead_to_the_higher_suit() {
    let rules = tarot_testkit::registry().get("cego").unwrap();
    let rec = read("valid/zwei-verschiedene-suit-order.json");
    let v = replay(rules, &rec).unwrap();
    let note = v.notes.iter().find(|n| n.contains("the highest of the winning cards")).expect("a note on the third lead");
    assert!(note.contains("of a lower suit"), "{note}");
    // The two winning cards are of one rank; the one of the suit first in clubs, spades, hearts,
    // diamonds leads.
    let at = plays(&rec);
    let winning = |k: usize| (0..4).map(|q| play(&rec, at[2 * q + k])).find(|(p, _)| *p == *v.tricks[k].winner).unwrap().1;
    let (a, b) = (winning(0), winning(1));
    assert_eq!(a[..a.len() - 1], b[..b.len() - 1], "{a} and {b}");
    let order = |c: &str| "CSHD".find(c.chars().last().unwrap()).unwrap();
    let higher = if order(&a) < order(&b) { 0 } else { 1 };
    assert_eq!(v.tricks[2].leader, v.tricks[higher].winner);
}

#[test]
fn the_other_contracts_play_their_tricks_one_at_a_time() {
    let rules = tarot_testkit::registry().get("cego").unwrap();
    for file in ["valid/eine-leere.json", "valid/cego.json", "valid/kleiner-mann.json"] {
        let rec = read(file);
        let v = replay(rules, &rec).unwrap();
        let at = plays(&rec);
        for (k, trick) in v.tricks.iter().enumerate() {
            let sent: Vec<String> = (0..4).map(|q| play(&rec, at[4 * k + q]).1).collect();
            assert_eq!(trick.cards.codes().map(str::to_string).collect::<Vec<_>>(), sent, "{file}, trick {}", k + 1);
        }
        assert!(!v.notes.iter().any(|n| n.contains("lead-together")), "{file}");
    }
}
