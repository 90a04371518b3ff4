//! A table whose deals are of different rulesets, or of one ruleset with different options per deal:
//! what is asked of one deal (who deals after it, the pots and standing it carries) is read under the
//! rules and options it was played by; the match, which spans deals, only where every deal up to its
//! end is of the first deal's ruleset and makes the match the same (`matches::table_match`).

use std::path::Path;

use tarot_engine::ir::Ruleset;
use tarot_engine::{dealer_follows, next_follows, parse_record, replay, table_match, GameRecord, Played, Status, TableMatch, Verdict};

fn fixture(path: &str) -> GameRecord {
    parse_record(&std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(path)).unwrap()).unwrap()
}

/// Each record refereed under its own ruleset.
fn refereed<'r>(r: &'r tarot_engine::Registry, records: &[GameRecord]) -> Vec<(&'r Ruleset, Verdict)> {
    records.iter().map(|rec| (r.get(&rec.ruleset).unwrap(), replay(r.get(&rec.ruleset).unwrap(), rec).unwrap())).collect()
}

fn played<'a>(records: &'a [GameRecord], refereed: &'a [(&'a Ruleset, Verdict)]) -> Vec<Played<'a>> {
    records.iter().zip(refereed).map(|(rec, (rules, v))| (*rules, rec, v)).collect()
}

/// A deal of the Pflicht-Räuber round (its `round` an option cego-pagat lacks) passes the deal on as
/// its own rules say: after Bob's, Cid deals, not Ann. Read under cego-pagat's rules, as the first
/// deal's, nobody was due and Ann's deal followed.
#[test]
fn the_dealer_after_a_deal_is_due_by_that_deals_own_rules_and_options() {
    let r = tarot_testkit::registry();
    let records = [fixture("cego-pagat/valid/4p-1.json"), fixture("cego-pflicht-rauber/valid/pflicht-30.json"), fixture("cego-pagat/valid/4p-2.json")];
    assert_eq!((records[1].dealer.as_str(), records[2].dealer.as_str()), ("Bob", "Ann"));
    let refs = refereed(r, &records);
    let deals = played(&records, &refs);
    let e = dealer_follows(&deals).unwrap_err();
    assert!(e.starts_with("deal 3 is dealt by Ann, but Cid was due to deal it: after deal 2, the deal passes from Bob"), "{e}");
    let m = next_follows(&deals[..2], deals[2].0, &records[2]).unwrap_err();
    assert_eq!(m.gap, tarot_engine::Gap::Dealer { dealer: "Ann".into(), due: "Cid".into() });
    let mut cid = records[2].clone();
    cid.dealer = "Cid".into();
    assert_eq!(next_follows(&deals[..2], deals[2].0, &cid), Ok(()));
}

/// FFT at five: after a deal of fft-5p thrown in, the deal passes on (Eve's, then Ann's); after one
/// of fft-5p-mort thrown in, the same mort deals again (Ann's, then Ann's again), which the first
/// deal's fft-5p would have refused, naming Bob.
#[test]
fn a_deal_thrown_in_passes_the_deal_as_its_own_ruleset_says() {
    let r = tarot_testkit::registry();
    let records = [fixture("fft-5p/annulled/annul.petit_first_packet.json"), fixture("fft-5p-mort/annulled/bidding.all-pass.json"), fixture("fft-5p-mort/valid/5p-1.json")];
    let refs = refereed(r, &records);
    assert_eq!(refs.iter().map(|(_, v)| v.status).collect::<Vec<_>>(), [Status::Annulled, Status::Annulled, Status::Valid]);
    assert_eq!(records.iter().map(|r| r.dealer.as_str()).collect::<Vec<_>>(), ["Eve", "Ann", "Ann"]);
    let deals = played(&records, &refs);
    assert_eq!(dealer_follows(&deals), Ok(()));
    // Under the first deal's rules throughout, Ann's second deal was refused.
    let first = deals[0].0;
    let as_first: Vec<Played> = deals.iter().map(|&(_, rec, v)| (first, rec, v)).collect();
    let e = dealer_follows(&as_first).unwrap_err();
    assert!(e.starts_with("deal 3 is dealt by Ann, but Bob was due to deal it"), "{e}");
    // Bob, the next player, is not due after a mort's deal thrown in.
    let mut bob = records[2].clone();
    bob.dealer = "Bob".into();
    let e = next_follows(&deals[..2], deals[2].0, &bob).unwrap_err();
    assert!(
        e.message.starts_with("deal 3 is dealt by Bob, but Ann was due to deal it: deal 2 was annulled, and its dealer, Ann, deals again (rule deal.next_dealer_annulled"),
        "{e}"
    );
}

/// The match: one ruleset whose option changes nothing of the match (the Pflicht-Räuber round's
/// `round`) is one match; a deal of another ruleset before its end, or options that make another
/// match, is none, and why is said; a deal after its end is not asked.
#[test]
fn a_match_is_read_over_deals_of_the_first_deals_ruleset_alone() {
    let r = tarot_testkit::registry();
    let evening = [fixture("cego-pflicht-rauber/valid/4p-1.json"), fixture("cego-pflicht-rauber/valid/pflicht-30.json")];
    let refs = refereed(r, &evening);
    let m = match table_match(&played(&evening, &refs)).unwrap() {
        TableMatch::Read(m) => m,
        other => panic!("{other:?}"),
    };
    assert_eq!((m.played, m.over_after), (2, None));

    let mixed = [fixture("cego-pagat/valid/4p-1.json"), fixture("cego-pflicht-rauber/valid/pflicht-30.json")];
    let refs = refereed(r, &mixed);
    assert_eq!(
        table_match(&played(&mixed, &refs)).unwrap(),
        TableMatch::NotAMatch(
            "deal 2 is of cego-pflicht-rauber, deal 1 of cego-pagat: a session's match is read under the ruleset of its first deal, and every deal up to its end must be of that ruleset".into()
        )
    );
    // The first deal's ruleset plays no match, a later deal's does.
    let troccas = [fixture("troccas/valid/4p-1.json"), fixture("cego-pagat/valid/4p-1.json")];
    let refs = refereed(r, &troccas);
    match table_match(&played(&troccas, &refs)).unwrap() {
        TableMatch::NotAMatch(why) => assert!(why.starts_with("deal 2 is of cego-pagat, which plays a match, but deal 1 is of troccas, which plays none"), "{why}"),
        other => panic!("{other:?}"),
    }
    let refs = refereed(r, &troccas[..1]);
    assert_eq!(table_match(&played(&troccas[..1], &refs)).unwrap(), TableMatch::None);

    // Grosstarock's game of three deals (`deals = option.deals`): over after the third; a deal of
    // Scarto after it is not asked, one before it makes no match; a third deal recorded as of a game
    // of six makes another match.
    let mut game: Vec<GameRecord> = (1..=3).map(|k| fixture(&format!("grosstarock/sessions/follow/deal-{k}.json"))).collect();
    game.push(fixture("scarto/valid/3p-1.json"));
    let refs = refereed(r, &game);
    match table_match(&played(&game, &refs)).unwrap() {
        TableMatch::Read(m) => assert_eq!((m.played, m.over_after), (3, Some(3))),
        other => panic!("{other:?}"),
    }
    game.swap(2, 3);
    let refs = refereed(r, &game);
    match table_match(&played(&game, &refs)).unwrap() {
        TableMatch::NotAMatch(why) => assert!(why.starts_with("deal 3 is of scarto, deal 1 of grosstarock"), "{why}"),
        other => panic!("{other:?}"),
    }
    game.swap(2, 3);
    game[2].options.insert("deals".into(), serde_json::json!(6));
    let refs = refereed(r, &game);
    assert_eq!(
        table_match(&played(&game, &refs)).unwrap(),
        TableMatch::NotAMatch(
            "deal 3's options make the match 6 deals and no target, deal 1's 3 deals and no target: every deal up to the match's end must make it the same".into()
        )
    );
}

/// Troccas reads the match so far (`carried(p)`), cego-pagat does not: a Troccas deal after a Cego
/// deal carries the total of both deals before it; the Cego deal carries none, as its rules read none
/// (read under the first deal's Troccas rules, it was refused for carrying nothing).
#[test]
fn the_standing_is_asked_of_deals_whose_own_rules_read_it() {
    let r = tarot_testkit::registry();
    let mut records = [fixture("troccas/valid/4p-1.json"), fixture("cego-pagat/valid/4p-1.json"), fixture("troccas/valid/4p-2.json")];
    // Troccas 4p-1 scores Ann and Cid 4, Bob and Dan -4; cego-pagat 4p-1 Ann, Bob and Cid 105, Dan -315.
    records[2].standing = [("Ann", 109), ("Bob", 101), ("Cid", 109), ("Dan", -319)].into_iter().map(|(p, t)| (p.to_string(), t)).collect();
    let refs = refereed(r, &records);
    let deals = played(&records, &refs);
    assert_eq!(tarot_engine::standing_follows(&deals), Ok(()));
    // Offered as the next deal, dealt by Bob, who is due after Ann's Cego deal.
    let mut next = records[2].clone();
    next.dealer = "Bob".into();
    assert_eq!(next_follows(&deals[..2], deals[2].0, &next).map_err(|m| m.message), Ok(()));
    let first = deals[0].0;
    let as_first: Vec<Played> = deals.iter().map(|&(_, rec, v)| (first, rec, v)).collect();
    let e = tarot_engine::standing_follows(&as_first).unwrap_err();
    assert!(e.starts_with("deal 2 says Ann carries 0 from the match, but the deals before it add up to 4"), "{e}");
    let mut wrong = next.clone();
    wrong.standing.insert("Ann".into(), 50);
    let e = next_follows(&deals[..2], deals[2].0, &wrong).unwrap_err();
    assert!(e.message.starts_with("deal 3 says Ann carries 50 from the match, but the deals before it add up to 109"), "{e}");
}
