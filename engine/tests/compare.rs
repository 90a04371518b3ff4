//! Rulesets side by side, from the compiled rules: a snapshot of the table the sources' three families
//! make, and the rows that must differ or agree.

use tarot_engine::compare::compare;
use tarot_engine::Registry;

#[test]
fn fft_marolles_and_basic_side_by_side() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
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
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules: Vec<_> = ["fft-4p", "fft-4p-garde-contre-x8"].iter().map(|id| registry.get(id).unwrap()).collect();
    let differing: Vec<&str> = compare(&rules).rows.iter().filter(|r| r.differs).map(|r| r.aspect).collect();
    assert_eq!(differing, vec!["bidding and contracts"]);
}
