//! Who leads after some tricks, where not their winner (`play { next-lead }`), on pagat.com's
//! Ministranten (P "The Play"): in the Leere games the empty cards kept lead the first trick (Eine
//! Leere) or the first two (the Zwei games, led together) and take none of them; the bidder leads the
//! trick after them. The stored games of these contracts have him lead it, the verdict noting the
//! lead given, the trick before it taken by a defender; `next` names the bidder; and the game where
//! that trick's winner leads is refused, citing the rule.

use tarot_engine::{replay, Event, GameRecord, Status};

const RULE: &str = "play.next-lead.the-bidder-leads-after-the-tricks-of-the-empty-cards-kept";

fn read(rel: &str) -> GameRecord {
    tarot_engine::read_record(tarot_testkit::fixture(&format!("cego-ministranten/{rel}")).as_bytes()).unwrap()
}

/// The player of the `k`-th play of the record (from 0).
fn player_of_play(rec: &GameRecord, k: usize) -> String {
    rec.events.iter().filter_map(|e| if let Event::Play { player, .. } = e { Some(player.to_string()) } else { None }).nth(k).expect("a play")
}

fn taker(rec: &GameRecord) -> String {
    rec.events.iter().filter_map(|e| if let Event::Discard { player, .. } = e { Some(player.to_string()) } else { None }).next().expect("the bidder lays away")
}

#[test]
fn the_bidder_leads_the_trick_after_those_of_the_cards_kept() {
    let rules = tarot_testkit::registry().get("cego-ministranten").unwrap();
    for (game, kept) in [("eine-leere", 1), ("zwei-leere", 2), ("zwei-verschiedene", 2)] {
        let rec = read(&format!("valid/{game}.json"));
        let v = replay(rules, &rec).unwrap();
        assert_eq!(v.status, Status::Valid, "{game}: {}", v.to_text());
        let bidder = taker(&rec);
        // The trick after the cards kept: its first card is the bidder's.
        assert_eq!(player_of_play(&rec, 4 * kept), bidder, "{game}");
        assert!(v.notes.iter().any(|n| n.contains(RULE) && n.contains(&format!("{bidder} leads trick {}", kept + 1))), "{game}: {:?}", v.notes);
        // Before that card, `next` names him.
        let mut cut = rec.clone();
        let at = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).nth(4 * kept).unwrap().0;
        cut.events.truncate(at);
        assert_eq!(*replay(rules, &cut).unwrap().next.expect("a card is next").player, *bidder, "{game}");
        // The lead given is not the winner's: a defender took that trick.
        let mark = format!("{bidder} leads trick {} in place of ", kept + 1);
        let winner = v.notes.iter().find_map(|n| n.split_once(&mark).and_then(|(_, w)| w.split_once(',')).map(|(w, _)| w.to_string())).expect("the note");
        assert_ne!(winner, bidder, "{game}");
    }
}

#[test]
fn the_winner_leading_instead_breaks_the_rule() {
    let rules = tarot_testkit::registry().get("cego-ministranten").unwrap();
    for game in ["eine-leere", "zwei-leere"] {
        let rec = read(&format!("invalid/{RULE}--{game}.json"));
        let v = replay(rules, &rec).unwrap();
        let broke = v.violation.expect("refused");
        assert_eq!(broke.rule.to_string(), RULE, "{game}");
        assert!(broke.message.contains("lead, not"), "{game}: {}", broke.message);
    }
}
