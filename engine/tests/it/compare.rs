//! Rulesets side by side, from the compiled rules: a snapshot of the table the sources' three families
//! make, and the rows that must differ or agree.

use crate::common::registry_with;
use tarot_engine::compare;

#[test]
fn fft_marolles_and_basic_side_by_side() {
    let registry = tarot_testkit::registry();
    let rules: Vec<_> = ["fft-4p", "marolles-1637", "basic"].iter().map(|id| registry.get(id).unwrap()).collect();
    let c = compare(&rules);
    let row = |aspect: &str| c.rows.iter().find(|r| r.aspect == aspect).unwrap_or_else(|| panic!("no row {aspect}"));
    // Marolles and Basic have no overtrump, FFT has.
    assert!(row("trick obligations").differs);
    assert!(row("trick obligations").cells[0].iter().any(|l| l.text.contains("beat the highest trump")));
    assert!(!row("trick obligations").cells[1].iter().any(|l| l.text.contains("beat the highest trump")));
    // Pack totals 91, 74, 78.
    for (cell, total) in row("counting").cells.iter().zip(["91", "74", "78"]) {
        assert!(cell[0].text.ends_with(&format!("pack total {total}")), "{}", cell[0].text);
    }
    insta::assert_snapshot!("fft-4p__marolles-1637__basic", c.to_text());
}

#[test]
fn a_ruleset_and_its_house_variant_differ_only_where_the_file_says() {
    let registry = tarot_testkit::registry();
    let rules: Vec<_> = ["fft-4p", "fft-4p-garde-contre-x8"].iter().map(|id| registry.get(id).unwrap()).collect();
    let differing: Vec<&str> = compare(&rules).rows.iter().filter(|r| r.differs).map(|r| r.aspect).collect();
    assert_eq!(differing, vec!["bidding and contracts"]);
}

/// A variant that changes only a value the rules name (`let`) differs where that value is said, and
/// its pages and violations say its own values: fft-3p's poignées are of 13, 15 or 18 trumps.
#[test]
fn a_variant_that_changes_a_let_differs_in_its_values() {
    let registry = tarot_testkit::registry();
    let rules: Vec<_> = ["fft-4p", "fft-4p-poignee-20-40-60"].iter().map(|id| registry.get(id).unwrap()).collect();
    let differing: Vec<&str> = compare(&rules).rows.iter().filter(|r| r.differs).map(|r| r.aspect).collect();
    assert_eq!(differing, vec!["values the rules name"]);
    let three = compare(&[registry.get("fft-3p").unwrap()]);
    let said: Vec<&str> = three.rows.iter().flat_map(|r| r.cells[0].iter().map(|l| l.text.as_str())).collect();
    assert!(said.contains(&"a poignée shows exactly 13, 15 or 18 trumps"), "{said:?}");
}

/// A game legal under one ruleset and illegal under another: where they first diverge, and why.
#[test]
fn one_game_under_several_rulesets_says_where_legality_diverges() {
    // A variant without the overtrump (as Marolles and Basic Tarot play), written as a new rule file.
    let variant = "ruleset no-overtrump \"FFT without the overtrump\"\nextends fft-4p\nplay {\n  without must overtrump\n}\n";
    let registry = registry_with("no-overtrump", variant);
    let rules: Vec<_> = ["fft-4p", "no-overtrump", "marolles-1637"].iter().map(|id| registry.get(id).unwrap()).collect();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/fft-4p/invalid/play.must.overtrump.json");
    let record = tarot_engine::parse_record(&std::fs::read_to_string(path).unwrap()).unwrap();
    let c = tarot_engine::compare_game(&rules, &record);
    let d = c.divergence.as_ref().expect("they diverge");
    assert_eq!(d.illegal_under, vec!["fft-4p"]);
    assert_eq!(d.legal_under, vec!["no-overtrump"]);
    assert!(d.explanation.contains("legal under no-overtrump, which has no play.must.overtrump"), "{}", d.explanation);
    assert!(c.replays[2].cannot_replay.as_deref().is_some_and(|w| w.contains("3 players")), "marolles-1637 cannot replay a four-player game");
    insta::assert_snapshot!("overtrump_divergence", c.to_text());
}

/// Every rule a fixture's verdict cites (the rule an invalid game breaks, the annulment, each ledger
/// entry's rule) is one the ruleset's description lists, so a verdict's rule can be looked up, and a
/// comparison can say which ruleset lacks it.
#[test]
fn every_rule_a_verdict_cites_is_in_the_description() {
    let registry = tarot_testkit::registry();
    let mut checked = [0; 3];
    for rules in registry.all() {
        let listed: Vec<String> = tarot_engine::describe(rules, &Default::default()).rules.iter().map(|l| l.rule.to_string()).collect();
        for (k, kind) in ["invalid", "annulled", "valid"].iter().enumerate() {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(&rules.id).join(kind);
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let record = tarot_engine::parse_record(&std::fs::read_to_string(entry.path()).unwrap()).unwrap();
                let v = tarot_engine::replay(rules, &record).unwrap();
                let cited: Vec<String> =
                    v.violation.map(|x| x.rule.to_string()).into_iter().chain(v.annulled.map(|a| a.rule.to_string())).chain(v.ledger.iter().map(|l| l.rule.to_string())).collect();
                for rule in cited {
                    assert!(listed.contains(&rule), "{}: {rule} is not in the description of {}", entry.path().display(), rules.id);
                    checked[k] += 1;
                }
            }
        }
    }
    assert!(checked[0] > 100 && checked[1] > 20 && checked[2] > 100, "rules checked in invalid, annulled and valid fixtures: {checked:?}");
}

/// A deal annulled under one ruleset and played under another diverges at the event that annuls it:
/// the petit sec annuls the deal at the FFT, not where the lone Petit is untouchable.
#[test]
fn a_deal_annulled_under_one_ruleset_and_played_under_another_diverges_there() {
    let registry = tarot_testkit::registry();
    let rules: Vec<_> = ["fft-4p", "fft-4p-petit-imprenable"].iter().map(|id| registry.get(id).unwrap()).collect();
    let fixture = |name: &str| tarot_engine::parse_record(&std::fs::read_to_string(format!("{}/../fixtures/fft-4p/annulled/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()).unwrap();
    let record = fixture("annul.petit_sec.json");
    let d = tarot_engine::compare_game(&rules, &record).divergence.expect("a divergence");
    assert_eq!((d.event, d.annulled_under.as_slice(), d.legal_under.as_slice()), (0, &["fft-4p".to_string()][..], &["fft-4p-petit-imprenable".to_string()][..]));
    assert!(d.illegal_under.is_empty());
    assert!(d.explanation.contains("which has no annul.petit_sec") && d.explanation.contains("the deal is annulled under fft-4p"), "{}", d.explanation);
    // Everyone passes: annulled under both, they agree.
    assert!(tarot_engine::compare_game(&rules, &fixture("bidding.all-pass.json")).divergence.is_none());
}

/// Droggn beside Tapp Tarock: Droggn's Gstieß is the Excuse by default and the top trump by an
/// option, so its pack cell shows both packs, the second named by its choice, as Tapp's Sküs is shown.
#[test]
fn a_pack_that_follows_an_option_shows_each_choice() {
    let registry = tarot_testkit::registry();
    let rules: Vec<_> = ["droggn", "tapp-tarock"].iter().map(|id| registry.get(id).unwrap()).collect();
    let c = compare(&rules);
    let pack = c.rows.iter().find(|r| r.aspect == "pack and ranks").unwrap();
    let droggn: Vec<&str> = pack.cells[0].iter().map(|l| l.text.as_str()).collect();
    assert!(droggn.iter().any(|t| t.starts_with("66 cards:") && t.ends_with("21 trumps, the Gstieß")), "{droggn:#?}");
    assert!(droggn.iter().any(|t| t.starts_with("with gstiess = \"top-trump\": 66 cards:") && t.ends_with("22 trumps")), "{droggn:#?}");
    assert!(droggn.iter().any(|t| t.starts_with("with gstiess = \"top-trump\": trumps high to low: T22 (the Gstieß) T21 (the Mond)")), "{droggn:#?}");
    // Tapp Tarock's pack follows no option: no such line.
    assert!(pack.cells[1].iter().all(|l| !l.text.starts_with("with ")));
    let excuse = c.rows.iter().find(|r| r.aspect == "the excuse").unwrap();
    assert!(excuse.cells[0].iter().any(|l| l.text.contains("these rules hold while the Gstieß is the Excuse")));
}
