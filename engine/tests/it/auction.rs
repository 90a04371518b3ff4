//! The auction's forms (issue 15, G5), on the test rule files of `tests/rules/`: bidding round and
//! round (`turns rounds`), forehand's hold (`hold forehand`), no re-raising once outbid
//! (`no-reraise`), a bid the hand forces (`must-bid`), and a contract played when everyone passes
//! (`all-pass play`, G4). Each test deals one seeded random deal, says
//! the bids in turn, and reads the verdict: who speaks next and what he may say, or the rule broken.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::{replay, Event, GameRecord, Phase, Status, Verdict};

/// A test ruleset of `tests/rules/`, compiled over the built-in files it extends.
fn rules(id: &str) -> Ruleset {
    let files = ["auction-hold", "auction-hold-seniority", "auction-no-reraise", "auction-forced", "auction-all-pass", "auction-by", "auction-settle", "auction-bid-before"];
    common::rules(id, &files)
}

/// A seeded random game's deal, with no bid yet.
fn deal(rules: &Ruleset, seed: u64) -> GameRecord {
    let mut g = random_game(rules, 4, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
    g.events.truncate(1);
    g
}

/// The bids said in turn, each by whoever the verdict says speaks next; the verdict after the last.
fn say(rules: &Ruleset, mut g: GameRecord, bids: &[&str]) -> Verdict {
    for bid in bids {
        let v = replay(rules, &g).unwrap();
        let next = v.next.unwrap_or_else(|| panic!("nobody to say {bid}: {:?} {:?}", v.status, v.violation));
        assert_eq!(next.phase, Phase::Bid, "the bidding is over before {bid}");
        g.events.push(Event::Bid { player: next.player.as_ref().into(), bid: (*bid).into() });
    }
    replay(rules, &g).unwrap()
}

fn broken(v: &Verdict) -> String {
    assert_eq!(v.status, Status::Invalid, "{:?}", v.next);
    v.violation.as_ref().unwrap().rule.to_string()
}

fn legal(v: &Verdict) -> Vec<String> {
    let next = v.next.as_ref().unwrap();
    assert_eq!(next.phase, Phase::Bid);
    next.legal.clone()
}

/// Whoever speaks after the bids `bids`.
fn speaker(rules: &Ruleset, g: &GameRecord, bids: &[&str]) -> String {
    say(rules, g.clone(), bids).next.unwrap().player.to_string()
}

#[test]
fn bidding_goes_round_until_nobody_is_left_to_outbid_and_a_pass_is_final() {
    let r = rules("auction-hold");
    let g = deal(&r, 1);
    let forehand = speaker(&r, &g, &[]);
    // Forehand passes, the second bids, the others pass: forehand does not speak again.
    let v = say(&r, g.clone(), &["pass", "prise", "pass", "pass"]);
    assert_ne!(v.next.as_ref().map(|n| n.phase), Some(Phase::Bid), "{:?}", v.next);
    assert_eq!(v.status, Status::InProgress);
    // Round and round: after prise, garde, pass, pass, the player who bid prise speaks again.
    assert_eq!(speaker(&r, &g, &["prise", "garde", "pass", "pass"]), forehand);
    let second = speaker(&r, &g, &["pass"]);
    assert_eq!(speaker(&r, &g, &["pass", "prise", "garde", "pass"]), second, "the prise bidder, outbid, speaks again");
    // The holder is skipped: once the others have passed, the bidding is over.
    let v = say(&r, g.clone(), &["pass", "prise", "garde", "pass", "garde-sans", "pass"]);
    assert_ne!(v.next.as_ref().unwrap().phase, Phase::Bid);
    // Everyone passing annuls the deal, as in the parent.
    let v = say(&r, g.clone(), &["pass", "pass", "pass", "pass"]);
    assert_eq!((v.status, v.annulled.as_ref().unwrap().rule.as_ref()), (Status::Annulled, "bidding.all-pass"));
}

#[test]
fn forehand_may_hold_and_the_others_must_bid_higher() {
    let r = rules("auction-hold");
    let g = deal(&r, 1);
    // A later player's bid not higher than a held bid breaks the contract's rule.
    assert_eq!(broken(&say(&r, g.clone(), &["prise", "prise"])), "bidding.contract.prise");
    assert_eq!(broken(&say(&r, g.clone(), &["pass", "garde", "garde"])), "bidding.contract.garde");
    // Forehand holds the garde bid over his prise; the player he held must now bid higher.
    let v = say(&r, g.clone(), &["prise", "garde", "pass", "pass"]);
    assert_eq!(legal(&v), ["pass", "garde", "garde-sans", "garde-contre"], "forehand may hold the garde");
    let v = say(&r, g.clone(), &["prise", "garde", "pass", "pass", "garde"]);
    assert_eq!(legal(&v), ["pass", "garde-sans", "garde-contre"]);
    // Forehand may hold, not underbid: a prise under the garde breaks the prise's rule.
    assert_eq!(broken(&say(&r, g.clone(), &["prise", "garde", "pass", "pass", "prise"])), "bidding.contract.prise");
    let v = say(&r, g.clone(), &["prise", "garde", "pass", "pass", "garde", "pass"]);
    assert_eq!(v.status, Status::InProgress);
    assert_ne!(v.next.as_ref().unwrap().phase, Phase::Bid, "forehand holds the garde and takes");
    // Only forehand holds: a later player bidding the same is refused under the contract.
    assert_eq!(broken(&say(&r, g.clone(), &["pass", "prise", "garde", "pass", "garde"])), "bidding.contract.garde");
}

#[test]
fn by_seniority_any_player_may_hold_the_bid_of_a_player_after_him() {
    let r = rules("auction-hold-seniority");
    let mut g = deal(&r, 1);
    // Forehand passes; the second bids prise, the third garde, the fourth passes: the second speaks.
    let bids = ["pass", "prise", "garde", "pass"];
    // Under the default (forehand's hold) he must bid higher than the garde.
    assert_eq!(legal(&say(&r, g.clone(), &bids)), ["pass", "garde-sans", "garde-contre"]);
    assert_eq!(broken(&say(&r, g.clone(), &["pass", "prise", "garde", "pass", "garde"])), "bidding.contract.garde");
    // By seniority he spoke before the third, so he may hold the garde, and the third must bid higher.
    g.options.insert("priority".into(), serde_json::json!("seniority"));
    assert_eq!(legal(&say(&r, g.clone(), &bids)), ["pass", "garde", "garde-sans", "garde-contre"]);
    let v = say(&r, g.clone(), &["pass", "prise", "garde", "pass", "garde"]);
    assert_eq!(legal(&v), ["pass", "garde-sans", "garde-contre"], "the junior may not hold back");
    let v = say(&r, g.clone(), &["pass", "prise", "garde", "pass", "garde", "pass"]);
    assert_ne!(v.next.as_ref().unwrap().phase, Phase::Bid, "the second holds the garde and takes");
    // Random games under both choices replay valid or annulled.
    for choice in ["forehand", "seniority"] {
        let options = BTreeMap::from([("priority".to_string(), serde_json::json!(choice))]);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..20 {
            let game = random_game(&r, 4, &options, &mut rng).unwrap();
            assert_ne!(replay(&r, &game).unwrap().status, Status::Invalid, "{choice}");
        }
    }
}

#[test]
fn a_hold_that_follows_options_is_checked_for_every_choice() {
    let compile_with = |bidding: &str| {
        let option = if bidding.contains("option.") { "option priority \"p\" = [\"forehand\", \"seniority\"]\n" } else { "" };
        common::compile_text("child", &format!("ruleset child \"c\"\nextends fft-4p\n{option}bidding {{\n  turns rounds\n  {bidding}\n}}\n")).map(|_| ())
    };
    assert_eq!(compile_with("hold seniority"), Ok(()));
    let dealer = compile_with("hold = if option.priority == \"seniority\" then \"dealer\" else \"forehand\"").unwrap_err();
    assert!(dealer.contains("with option.priority = \"seniority\": `hold = formula` must give \"forehand\" or \"seniority\", not \"dealer\""), "{dealer}");
    let fixed = compile_with("hold = if 1 == 1 then \"seniority\" else \"forehand\"").unwrap_err();
    assert!(fixed.contains("reads none: write `hold forehand` or `hold seniority`"), "{fixed}");
}

#[test]
fn a_player_outbid_may_not_bid_again() {
    let r = rules("auction-no-reraise");
    let g = deal(&r, 1);
    // Forehand's prise is outbid by a garde: he may only pass, so he may not hold either.
    let v = say(&r, g.clone(), &["prise", "garde", "pass", "pass"]);
    assert_eq!(legal(&v), ["pass"]);
    assert_eq!(broken(&say(&r, g.clone(), &["prise", "garde", "pass", "pass", "garde"])), "bidding.no-reraise");
    assert_eq!(broken(&say(&r, g.clone(), &["prise", "garde", "pass", "pass", "garde-sans"])), "bidding.no-reraise");
    // Held by forehand, the garde bidder is outbid too.
    let v = say(&r, g.clone(), &["pass", "prise", "garde", "pass"]);
    assert_eq!(legal(&v), ["pass"], "the prise bidder was outbid");
    let v = say(&r, g.clone(), &["pass", "prise", "garde", "pass", "pass"]);
    assert_ne!(v.next.as_ref().unwrap().phase, Phase::Bid, "the garde is taken");
}

#[test]
fn a_hand_that_forces_a_bid_may_neither_pass_nor_bid_lower() {
    let r = rules("auction-forced");
    // A deal in which a player, not forehand, holds the 21.
    let (g, holder) = (1..)
        .map(|seed| deal(&r, seed))
        .find_map(|g| {
            let Event::Deal { hands, .. } = &g.events[0] else { unreachable!() };
            let holder = hands.iter().find(|(_, cards)| cards.iter().any(|c| c == "T21"))?.0.to_string();
            (holder != speaker(&r, &g, &[])).then_some((g, holder))
        })
        .unwrap();
    // Passes until the holder speaks.
    let mut before = vec![];
    while speaker(&r, &g, &before) != holder {
        before.push("pass");
    }
    let v = say(&r, g.clone(), &before);
    assert_eq!(legal(&v), ["garde", "garde-sans", "garde-contre"]);
    for bid in ["pass", "prise"] {
        let said: Vec<&str> = before.iter().copied().chain([bid]).collect();
        let v = say(&r, g.clone(), &said);
        assert_eq!(broken(&v), "bidding.must-bid.garde");
        assert!(v.violation.as_ref().unwrap().message.contains("holds the 21, so must bid at least garde"), "{:?}", v.violation);
    }
    let said: Vec<&str> = before.iter().copied().chain(["garde"]).collect();
    assert_eq!(say(&r, g.clone(), &said).status, Status::InProgress);
    // Once a garde sans is held, a garde is no longer open to him: he may pass.
    let mut over = vec!["garde-sans"];
    while speaker(&r, &g, &over) != holder {
        over.push("pass");
    }
    assert!(legal(&say(&r, g.clone(), &over)).contains(&"pass".to_string()));
}

#[test]
fn a_contract_only_forehand_may_bid_is_offered_to_him_alone_and_refused_to_the_others() {
    let r = rules("auction-by");
    let g = deal(&r, 1);
    // Forehand speaks first and may bid it.
    let v = say(&r, g.clone(), &[]);
    assert!(legal(&v).contains(&"garde-contre".to_string()), "{:?}", legal(&v));
    assert_eq!(say(&r, g.clone(), &["garde-contre"]).status, Status::InProgress);
    // The next player is not offered it, and bidding it breaks the rule, which names him.
    let second = speaker(&r, &g, &["pass"]);
    let v = say(&r, g.clone(), &["pass"]);
    assert_eq!(legal(&v), ["pass", "prise", "garde", "garde-sans"]);
    let v = say(&r, g.clone(), &["pass", "garde-contre"]);
    assert_eq!(broken(&v), "bidding.contract.garde-contre.by");
    let m = &v.violation.as_ref().unwrap().message;
    assert!(m.contains("garde contre le chien may be bid only by forehand") && m.contains(&second), "{m}");
    // Without `by` (the parent rules) the same bid is valid.
    let parent = GameRecord { ruleset: "auction-hold".into(), ..g };
    assert_eq!(say(&rules("auction-hold"), parent, &["pass", "garde-contre"]).status, Status::InProgress);
}

#[test]
fn a_contract_barred_to_whoever_bid_another_before_reads_the_auction_so_far() {
    let r = rules("auction-bid-before");
    let g = deal(&r, 1);
    let forehand = speaker(&r, &g, &[]);
    // Forehand bids a prise, is outbid by a garde: he is no longer offered the garde sans, and
    // bidding it breaks the rule, which names him.
    let v = say(&r, g.clone(), &["prise", "garde", "pass", "pass"]);
    assert_eq!(v.next.as_ref().unwrap().player.to_string(), forehand);
    assert_eq!(legal(&v), ["pass", "garde", "garde-contre"]);
    let v = say(&r, g.clone(), &["prise", "garde", "pass", "pass", "garde-sans"]);
    assert_eq!(broken(&v), "bidding.contract.garde-sans.by");
    let m = &v.violation.as_ref().unwrap().message;
    assert!(m.contains("garde sans le chien may be bid only by a player who has not bid a prise") && m.contains(&forehand), "{m}");
    // A player who bid no prise may bid it, after another's prise, and after a bid of his own that
    // was not a prise (the second player's garde, held by forehand).
    assert!(legal(&say(&r, g.clone(), &["prise"])).contains(&"garde-sans".to_string()));
    assert_eq!(say(&r, g.clone(), &["prise", "garde-sans"]).status, Status::InProgress);
    assert_eq!(say(&r, g.clone(), &["prise", "garde", "pass", "pass", "garde", "garde-sans"]).status, Status::InProgress);
    // Without the `by` (the parent rules) forehand's garde sans after his prise is valid.
    let parent = GameRecord { ruleset: "auction-hold".into(), ..g.clone() };
    assert_eq!(say(&rules("auction-hold"), parent, &["prise", "garde", "pass", "pass", "garde-sans"]).status, Status::InProgress);
    // The rules in words say it.
    let d = tarot_engine::describe(&r, &BTreeMap::new());
    let text = d.rules.iter().find(|l| &*l.rule == "bidding.contract.garde-sans.by").unwrap().text.clone();
    assert_eq!(text, "garde sans le chien may be bid only by a player who has not bid a prise");
}

/// `bid_before` names a contract of the bidding block, in any formula of the game.
#[test]
fn bid_before_names_a_contract_of_the_bidding_block() {
    let compile_with = common::compile_error;
    let head = "ruleset t \"test\"\nextends fft-4p\nbidding {\n  turns rounds\n";
    // Outside a `by` too: the auction so far.
    assert_eq!(compile_with(&format!("{head}  must-bid garde \"x\" = not bid_before(player, prise)\n}}\n")), "");
    let e = compile_with(&format!("{head}  contract garde-sans \"gs\" {{ multiplier = 4; dog = \"taker-unseen\"; by \"x\" = not bid_before(player, prize) }}\n}}\n"));
    assert!(e.contains("unknown contract `prize` in `bid_before`; the contracts are prise, garde, garde-sans, garde-contre"), "{e}");
    let e = compile_with(&format!("{head}  contract garde-sans \"gs\" {{ multiplier = 4; dog = \"taker-unseen\"; by \"x\" = not bid_before(player, 3) }}\n}}\n"));
    assert!(e.contains("`bid_before` takes a player and the name of a contract"), "{e}");
    // A name with `-` is written as a string.
    let e = compile_with(&format!("{head}  contract garde-sans \"gs\" {{ multiplier = 4; dog = \"taker-unseen\"; by \"x\" = not bid_before(player, \"garde-contre\") }}\n}}\n"));
    assert_eq!(e, "");
    // A ruleset without an auction has nothing for it to read.
    let e = compile_with("ruleset t \"test\"\nextends minchiate\nscore {\n  let probe = bid_before(players[0], solo)\n}\n");
    assert!(e.contains("`bid_before` reads the auction, and this ruleset has no `bidding`"), "{e}");
}

/// In the score, `bid_before` reads the whole auction: a contract won over a prise (Cego's Gegensolo,
/// a game bid over a Solo) is told from one bid alone, in simulated games of the FFT's auction.
#[test]
fn bid_before_in_the_score_reads_the_whole_auction() {
    let text = "ruleset t \"test\"\nextends fft-4p\nscore {\n  let over_prise = contract.name != \"prise\" and any(p in players where bid_before(p, prise))\n}\n";
    let r = common::compile_text("t", text).unwrap_or_else(|e| panic!("{e}"));
    let mut seen = [0, 0];
    for seed in 0..200 {
        let g = random_game(&r, 4, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(&r, &g).unwrap();
        let Some(o) = v.outcome.as_ref().filter(|_| v.status == Status::Valid) else { continue };
        let bids: Vec<&str> = g.events.iter().filter_map(|e| if let Event::Bid { bid, .. } = e { Some(&**bid) } else { None }).collect();
        let won = bids.iter().rev().find(|b| **b != "pass").copied();
        let over = won.is_some_and(|w| w != "prise") && bids.contains(&"prise");
        let value = o.values.iter().find(|(k, _)| &**k == "over_prise").map(|(_, x)| x.to_string());
        assert_eq!(value.as_deref(), Some(if over { "true" } else { "false" }), "seed {seed}: bids {bids:?}");
        seen[usize::from(over)] += 1;
    }
    assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
}

#[test]
fn a_contract_settled_unplayed_ends_the_deal_at_the_auction_and_pays_the_taker() {
    let r = rules("auction-settle");
    let g = deal(&r, 1);
    let forehand = speaker(&r, &g, &[]);
    // Forehand alone is offered the Tapper.
    assert!(legal(&say(&r, g.clone(), &[])).contains(&"tapper".to_string()));
    assert!(!legal(&say(&r, g.clone(), &["pass"])).contains(&"tapper".to_string()));
    // Won with it, the deal is over: valid, nothing next, no trick, each opponent pays forehand 5.
    let v = say(&r, g.clone(), &["tapper", "pass", "pass", "pass"]);
    assert_eq!(v.status, Status::Valid, "{:?} {:?}", v.violation, v.next);
    assert!(v.next.is_none() && v.tricks.is_empty());
    let o = v.outcome.as_ref().unwrap();
    assert_eq!((o.taker.as_deref(), o.contract.as_deref()), (Some(forehand.as_str()), Some("tapper")));
    let paid: Vec<(String, String, String)> =
        v.ledger.iter().map(|l| (l.from.as_deref().unwrap().to_string(), l.to.as_deref().unwrap().to_string(), l.amount.to_string())).collect();
    assert_eq!(paid.len(), 3, "{paid:?}");
    assert!(paid.iter().all(|(f, t, a)| *f != forehand && *t == forehand && a == "5"), "{paid:?}");
    assert!(v.ledger.iter().all(|l| &*l.rule == "bidding.contract.tapper.settle"));
    let me = o.players.iter().find(|p| *p.player == *forehand).unwrap();
    assert_eq!(me.score.to_string(), "15");
    assert!(v.notes.iter().any(|n| n.contains("settled unplayed")), "{:?}", v.notes);
    // Any event after it breaks the settle.
    let mut more = g.clone();
    for bid in ["tapper", "pass", "pass", "pass"] {
        let who = replay(&r, &more).unwrap().next.unwrap().player.to_string();
        more.events.push(Event::Bid { player: who.as_str().into(), bid: bid.into() });
    }
    let Event::Deal { hands, .. } = &g.events[0] else { unreachable!() };
    let card = hands[forehand.as_str()][0].clone();
    more.events.push(Event::Play { player: forehand.as_str().into(), card });
    let v = replay(&r, &more).unwrap();
    assert_eq!(broken(&v), "bidding.contract.tapper.settle");
    assert!(v.violation.as_ref().unwrap().message.contains("settled unplayed when Tapper won the auction: no play follows"), "{:?}", v.violation);
    // The rules in words say both.
    let d = tarot_engine::describe(&r, &BTreeMap::new());
    let text = |rule: &str| d.rules.iter().find(|l| &*l.rule == rule).unwrap().text.clone();
    assert_eq!(text("bidding.contract.tapper.by"), "Tapper may be bid only by forehand");
    assert!(text("bidding.contract.tapper.settle").starts_with("Tapper is not played: once it wins the auction the deal ends, and each opponent pays the taker"));
}

/// The simulator bids under every new form (it draws among the legal bids the interpreter gives), and
/// its games replay valid or annulled, never invalid; forehand's hold shows up among them.
#[test]
fn simulated_games_under_the_new_auctions_replay_valid() {
    for id in ["auction-hold", "auction-no-reraise", "auction-forced", "auction-by", "auction-settle", "auction-bid-before"] {
        let r = rules(id);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut valid, mut held, mut long) = (0, 0, 0);
        for _ in 0..150 {
            let g = random_game(&r, 4, &BTreeMap::new(), &mut rng).unwrap();
            let v = replay(&r, &g).unwrap();
            assert!(matches!(v.status, Status::Valid | Status::Annulled), "{id}: {:?}", v.violation);
            valid += (v.status == Status::Valid) as usize;
            let bids: Vec<(&str, &str)> = g.events.iter().filter_map(|e| if let Event::Bid { player, bid } = e { Some((player.as_str(), bid.as_str())) } else { None }).collect();
            long += (bids.len() > 4) as usize;
            let contracts: Vec<(&str, &str)> = bids.iter().copied().filter(|(_, b)| *b != "pass").collect();
            held += contracts.windows(2).any(|w| w[0].1 == w[1].1) as usize;
        }
        assert!(valid > 50, "{id}: {valid} valid");
        assert!(long > 0, "{id}: no auction went round twice");
        if id != "auction-no-reraise" {
            assert!(held > 0, "{id}: forehand never held");
        }
    }
}

#[test]
fn when_everyone_passes_the_all_pass_contract_is_played_each_for_himself_and_scored() {
    let r = rules("auction-all-pass");
    let g = deal(&r, 1);
    // Nobody may bid it.
    let v = say(&r, g.clone(), &[]);
    assert_eq!(legal(&v), ["pass", "prise", "garde", "garde-sans", "garde-contre"]);
    assert_eq!(broken(&say(&r, g.clone(), &["raeuber"])), "bidding.all-pass");
    // Everyone passes: the play begins, with no taker and no discard.
    let v = say(&r, g.clone(), &["pass", "pass", "pass", "pass"]);
    assert_eq!((v.status, v.next.as_ref().unwrap().phase), (Status::InProgress, Phase::Play));
    // Played out (simulated games in which everyone passed), the one with the most card points pays
    // each other player 10; games with a taker score as at the FFT.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut passed, mut taken) = (0, 0);
    while passed < 5 || taken < 5 {
        let g = random_game(&r, 4, &BTreeMap::new(), &mut rng).unwrap();
        let v = replay(&r, &g).unwrap();
        if v.status == Status::Annulled {
            // A petit sec, as in the parent; never all passing.
            assert_ne!(v.annulled.as_ref().unwrap().rule.as_ref(), "bidding.all-pass");
            continue;
        }
        assert_eq!(v.status, Status::Valid, "{:?}", v.violation);
        let o = v.outcome.as_ref().unwrap();
        if o.contract.as_deref() == Some("raeuber") {
            passed += 1;
            assert_eq!(o.taker, None);
            assert!(v.notes.iter().any(|n| n.contains("all players passed: Räuber is played")), "{:?}", v.notes);
            let most = o.players.iter().map(|p| p.card_points).max().unwrap();
            let losers = o.players.iter().filter(|p| p.card_points == most).count() as i64;
            for p in &o.players {
                let expected = if p.card_points == most { -10 * (4 - losers) } else { 10 * losers };
                assert_eq!(p.score, tarot_engine::Q::int(expected), "{}: {:?}", p.player, o.players);
            }
            assert!(v.ledger.iter().filter(|l| l.from.is_some()).all(|l| l.label.starts_with("Räuber") || l.rule.starts_with("declaration")), "{:?}", v.ledger);
        } else {
            taken += 1;
            assert!(o.taker.is_some());
            assert!(v.ledger.iter().all(|l| !l.label.starts_with("Räuber")), "{:?}", v.ledger);
        }
    }
}

/// A bid a ruleset does not know is refused with the bids it has, and a ruleset with no contract to
/// bid (Minchiate) says it has only pass, not a list left open ("has pass, ").
#[test]
fn an_unknown_bid_names_the_bids_there_are() {
    let registry = tarot_testkit::registry();
    for (id, has) in [("minchiate", "minchiate has only pass"), ("fft-4p", "fft-4p has pass, prise, garde, ")] {
        let rules = registry.get(id).unwrap();
        let mut g = deal(rules, 7);
        let v = replay(rules, &g).unwrap();
        let next = v.next.unwrap_or_else(|| panic!("{id}: nobody to speak after the deal"));
        g.events.push(Event::Bid { player: next.player.as_ref().into(), bid: "misère".into() });
        let message = match replay(rules, &g) {
            Err(e) => e.to_string(),
            Ok(v) => format!("{:?}", v.violation),
        };
        assert!(message.contains(&format!("unknown bid \"misère\"; {has}")), "{id}: {message}");
        assert!(!message.contains("pass, ;") && !message.trim_end().ends_with(','), "{id}: {message}");
    }
}
