//! Deal statistics: reproducible for a seed, and matching the exact probability where it is known.

use crate::common::registry_with;
use rayon::prelude::*;
use tarot_engine::deal_stats;

/// C(n, k) as a float, for probabilities.
fn choose(n: u64, k: u64) -> f64 {
    (0..k).map(|i| (n - i) as f64 / (i + 1) as f64).product()
}

#[test]
fn petit_sec_frequency_matches_its_exact_probability() {
    let registry = tarot_testkit::registry();
    let rules = registry.get("fft-4p").unwrap();
    let deals = crate::common::count("STATS_PETIT_SEC_DEALS", 200_000);
    let s = deal_stats(rules, 4, deals, 1, &mut |_| {}).unwrap();
    // A hand of 18 from 78 holding the Petit, no other trump and not the Excuse: the 17 others are
    // among the 56 suited cards. The Petit is in one hand at most, so the four events exclude each other.
    let exact = 4.0 * choose(56, 17) / choose(78, 18);
    let seen = s.annulments["petit_sec"] as f64 / deals as f64;
    let sigma = (exact * (1.0 - exact) / deals as f64).sqrt();
    assert!((seen - exact).abs() < 4.0 * sigma, "petit sec in {seen} of deals, exactly {exact} (sigma {sigma})");
    // Oudlers per hand: the number of hands with all three is C(75,15)/C(78,18) of them.
    let all_three = s.classes["oudlers"][3] as f64 / (4 * deals) as f64;
    let exact3 = choose(75, 15) / choose(78, 18);
    let sigma3 = (exact3 * (1.0 - exact3) / (4 * deals) as f64).sqrt();
    assert!((all_three - exact3).abs() < 4.0 * sigma3, "three oudlers in {all_three} of hands, exactly {exact3}");
}

#[test]
fn statistics_are_reproducible_for_a_seed() {
    let registry = tarot_testkit::registry();
    for (id, n) in [("fft-4p", 4), ("marolles-1637", 3)] {
        let rules = registry.get(id).unwrap();
        let a = deal_stats(rules, n, 5_000, 42, &mut |_| {}).unwrap();
        let b = deal_stats(rules, n, 5_000, 42, &mut |_| {}).unwrap();
        let c = deal_stats(rules, n, 5_000, 43, &mut |_| {}).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.classes, c.classes);
        // Every hand is counted once per class.
        for counts in a.classes.values() {
            assert_eq!(counts.iter().sum::<u64>(), 5_000 * n as u64);
        }
    }
}

#[test]
fn remembering_answers_by_counts_changes_no_figure() {
    // The statistics remember each annulment's and declaration's answer per distinct count of the
    // hand in the sets the rule looks at; asking the interpreter about every hand must agree exactly,
    // for every ruleset and table size.
    // Each ruleset and table size on its own core.
    let registry = tarot_testkit::registry();
    let tables: Vec<_> = registry.all().flat_map(|rules| (rules.players.0..=rules.players.1).map(move |n| (rules, n))).collect();
    let deals = crate::common::count("STATS_REMEMBERED_DEALS", 3_000);
    tables.par_iter().for_each(|&(rules, n)| {
        // Some table sizes in the range are refused (partners need an even number); both must say so.
        let fast = deal_stats(rules, n, deals, 11, &mut |_| {});
        let slow = tarot_engine::deal_stats_unremembered(rules, n, deals, 11);
        assert_eq!(fast, slow, "{} with {n} players", rules.id);
    });
}

#[test]
fn a_rule_the_deal_alone_cannot_answer_is_named_with_its_reason() {
    // A variant whose annulment needs the order of the deal, which random deals do not record.
    let variant =
        "ruleset first-packet \"FFT where the Petit in the first packet always cancels\"\nextends fft-4p\nannul petit_first \"the Petit first\" = has(first_packet, T1)\n";
    let registry = registry_with("first-packet", variant);
    let e = deal_stats(registry.get("first-packet").unwrap(), 4, 100, 1, &mut |_| {}).unwrap_err();
    assert!(e.message.contains("first-packet") && e.message.contains("annul.petit_first") && e.message.contains("order of the deal"), "{}", e.message);
}

#[test]
fn a_pack_that_follows_an_option_is_named() {
    // Droggn's Gstieß is the Excuse or the top trump by an option: the statistics deal the default
    // options' pack and say which, and what the other choice makes of it; other rulesets say nothing.
    let registry = tarot_testkit::registry();
    let s = deal_stats(registry.get("droggn").unwrap(), 3, 100, 1, &mut |_| {}).unwrap();
    assert_eq!(s.pack.as_deref(), Some("dealt with the pack of the default options (gstiess = \"excuse\"): the Gstieß is the Excuse; with gstiess = \"top-trump\" it is a trump"));
    assert!(tarot_engine::stats_to_text(&[s]).contains("(dealt with the pack of the default options"));
    assert_eq!(deal_stats(registry.get("fft-4p").unwrap(), 4, 100, 1, &mut |_| {}).unwrap().pack, None);
}

#[test]
fn a_declaration_that_reads_the_hand_dealt_is_counted() {
    // Tapp Tarock's honours must be "dealt, not taken from the talon" (`has(hand_of(player), shown)`):
    // the statistics deal the hands, so a hand dealt all three trull cards can declare the Trull and
    // one dealt two of them the Heads. They counted no hand at all while `hand_of` read an empty deal.
    let registry = tarot_testkit::registry();
    let s = deal_stats(registry.get("tapp-tarock").unwrap(), 3, 3_000, 1, &mut |_| {}).unwrap();
    assert!(s.classes["trull"][3] > 0);
    assert_eq!(s.declarations["trull_bonus"], s.classes["trull"][3]);
    assert_eq!(s.declarations["heads"], s.classes["trull"][2]);
    assert!(s.declarations["four_kings"] > 0, "{:?}", s.declarations);
}

/// Options chosen deal and count as the game would be played with them: FFT's `petit_sec = seed-004`
/// annuls a Petit held with the Excuse too (more deals than by default, the same classes), Droggn's
/// `gstiess = top-trump` deals the Gstieß as a trump and says so; an unknown option or a value not
/// among its choices is named. The statistics took no options: the default pack and rules only.
#[test]
fn options_chosen_are_dealt_and_counted() {
    use std::collections::BTreeMap;
    use tarot_engine::{deal_stats_with, read_options};
    let registry = tarot_testkit::registry();
    let fft = registry.get("fft-4p").unwrap();
    let default = deal_stats(fft, 4, 20_000, 3, &mut |_| {}).unwrap();
    let chosen = read_options(fft, &[("petit_sec".into(), "seed-004".into())]).unwrap();
    let seed004 = deal_stats_with(fft, 4, &chosen, 20_000, 3, &mut |_| {}).unwrap();
    assert_eq!(seed004.options, chosen);
    assert_eq!(seed004.classes, default.classes, "the same deals");
    assert!(seed004.annulments["petit_sec"] > default.annulments["petit_sec"], "{:?} against {:?}", seed004.annulments, default.annulments);
    assert!(tarot_engine::stats_to_text(&[seed004]).contains("(options: petit_sec = seed-004)"));
    assert_eq!(deal_stats_with(fft, 4, &BTreeMap::new(), 20_000, 3, &mut |_| {}).unwrap(), default);

    let droggn = registry.get("droggn").unwrap();
    let top = read_options(droggn, &[("gstiess".into(), "top-trump".into())]).unwrap();
    let s = deal_stats_with(droggn, 3, &top, 100, 1, &mut |_| {}).unwrap();
    assert_eq!(s.pack.as_deref(), Some("dealt with the pack of the options chosen (gstiess = \"top-trump\"): the Gstieß is a trump"));
    // A number reads as the option's number.
    assert_eq!(read_options(droggn, &[("target".into(), "38".into())]).unwrap()["target"], serde_json::json!(38));

    let e = read_options(fft, &[("nope".into(), "x".into())]).unwrap_err();
    assert!(e.starts_with("fft-4p has no option `nope`; its options are: "), "{e}");
    let e = read_options(fft, &[("petit_sec".into(), "maybe".into())]).unwrap_err();
    assert!(e.starts_with("option `petit_sec` of fft-4p cannot be `maybe`; choose one of "), "{e}");
}

/// Statistics given up once their flag is set say so (`None`), and otherwise are the same figures.
#[test]
fn statistics_stop_when_cancelled() {
    use std::collections::BTreeMap;
    use std::sync::atomic::AtomicBool;

    use tarot_engine::{deal_stats_until, deal_stats_with};
    let registry = tarot_testkit::registry();
    let fft = registry.get("fft-4p").unwrap();
    let none = BTreeMap::new();
    assert_eq!(deal_stats_until(fft, 4, &none, 1_000, 3, &AtomicBool::new(true)).unwrap(), None);
    let whole = deal_stats_until(fft, 4, &none, 1_000, 3, &AtomicBool::new(false)).unwrap();
    assert_eq!(whole, Some(deal_stats_with(fft, 4, &none, 1_000, 3, &mut |_| {}).unwrap()));
}

/// The work of a deal, as a server bounds it: the rules the interpreter is asked about hand by hand
/// are counted (Tarocchini's sequences), those remembered by counts are not (FFT's).
#[test]
fn the_work_of_a_deal_counts_the_rules_asked_hand_by_hand() {
    use std::collections::BTreeMap;

    use tarot_engine::deal_work;
    let registry = tarot_testkit::registry();
    let fft = deal_work(registry.get("fft-4p").unwrap(), 4, &BTreeMap::new()).unwrap();
    assert_eq!((fft.cards, fft.hands, fft.unremembered), (78, 4, 0));
    let tarocchini = deal_work(registry.get("tarocchini").unwrap(), 4, &BTreeMap::new()).unwrap();
    assert_eq!((tarocchini.cards, tarocchini.hands), (62, 4));
    assert!(tarocchini.unremembered > 0, "{tarocchini:?}");
    assert!(deal_work(registry.get("basic-partners").unwrap(), 5, &BTreeMap::new()).is_err());
}
