//! The rules in words (`describe`), as the ruleset pages and the comparisons show them: the options'
//! values in force, formulas read as sentences.

use crate::common;

use tarot_engine::describe;
use tarot_engine::Registry;

/// The scoring and the annulments read in words, with the options' values in force: no `option.`,
/// no function call of the rules language.
#[test]
fn formulas_read_in_words() {
    let registry = tarot_testkit::registry();
    let text = |id: &str, options: &[(&str, serde_json::Value)], rule: &str| {
        let options = options.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        let d = describe(registry.get(id).unwrap(), &options);
        d.rules.iter().find(|l| &*l.rule == rule).map(|l| l.text.clone()).unwrap_or_else(|| panic!("no {rule} in {id}"))
    };
    assert_eq!(text("fft-4p", &[], "score.target"), "target: 56, 51, 41 or 36 as bouts is 0, 1, 2 or 3");
    assert_eq!(text("fft-4p", &[], "score.bouts"), "bouts: the number of oudlers in the attack's pile");
    assert_eq!(text("fft-4p", &[], "score.pay.defence.attack"), "the defence pays the attack: the hand score");
    assert_eq!(
        text("fft-4p", &[], "annul.petit_sec"),
        "petit sec: the Petit is the only trump: when the hand holds le Petit and the number of trumps in the hand is 1 and the hand does not hold the Excuse"
    );
    // Another value of the option, another rule: the Excuse no longer matters.
    assert_eq!(
        text("fft-4p", &[("petit_sec", "seed-004".into())], "annul.petit_sec"),
        "petit sec: the Petit is the only trump: when the hand holds le Petit and the number of trumps in the hand is 1"
    );
    assert_eq!(
        text("fft-4p", &[("petit_first_packet", "cancels".into())], "annul.petit_first_packet"),
        "the Petit dealt in the first packet: when the first packet dealt holds le Petit"
    );
    assert_eq!(text("marolles-1637", &[], "discard.penalty"), "discarding trumps or Tarots is paid for, to each opponent: 2 × the number of trumps and tarots in the discard");
    assert_eq!(text("marolles-1637", &[("illegal_discard", "once".into())], "discard.penalty"), "discarding trumps or Tarots is paid for, to each opponent: 2");
}

/// Every ruleset's words: a comprehension's variable is called by its name (nested ones were all "that
/// one", so Minchiate's honours read "that one − that one"), an empty set of cards is "no card" (was
/// nothing), and a pack whose Fool is a trump has no Excuse rules to describe (Tapp Tarock printed the
/// default Excuse section with no citation).
#[test]
fn names_empty_sets_and_a_fool_that_is_a_trump() {
    let registry = tarot_testkit::registry();
    for r in registry.all() {
        let d = describe(r, &Default::default());
        for l in &d.rules {
            assert!(!l.text.contains("that one"), "{}: {}: {}", r.id, l.rule, l.text);
            assert!(!l.text.contains("otherwise )") && !l.text.contains("otherwise,"), "{}: {}: {}", r.id, l.rule, l.text);
        }
        let excuse = d.rules.iter().any(|l| l.aspect == "the excuse");
        assert_eq!(excuse, r.pack.cards.contains(tarot_engine::FOOL), "{}", r.id);
    }
    let d = describe(registry.get("marolles-1637").unwrap(), &Default::default());
    let top = d.rules.iter().find(|l| &*l.rule == "score.top").unwrap();
    assert_eq!(top.text, "top: the highest p's card points among p in the players");
}

/// A labelled payment's rule id is its label's words up to the first sign, joined by `-`
/// (`score.pay.trischaken`, not `score.pay.trischaken:-the-most-…`), and a payment whose id another
/// already has is told apart by its number.
#[test]
fn a_labelled_payment_is_named_by_its_label() {
    let registry = tarot_testkit::registry();
    let ids = |rules: &tarot_engine::ir::Ruleset| rules.score.pays.iter().map(|p| p.clause.rule.to_string()).collect::<Vec<_>>();
    assert!(ids(registry.get("galician-tarok").unwrap()).contains(&"score.pay.trischaken".to_string()), "{:?}", ids(registry.get("galician-tarok").unwrap()));
    assert_eq!(ids(registry.get("fft-2p").unwrap()), ["score.pay.game", "score.pay.petit-au-bout"]);
    let text = Registry::builtin_files()["fft-2p"].text.replace("ruleset fft-2p", "ruleset paid-twice").replace("\"petit au bout\"", "\"Game: the petit\"");
    let twice = common::registry_with("paid-twice", &text);
    assert_eq!(ids(twice.get("paid-twice").unwrap()), ["score.pay.game", "score.pay.game.2"]);
}

/// A label takes the article its first sound asks for ("an accuso", "an Ultimo", not "a accuso"), none
/// when it begins with "the"; a set of cards folded by the compiler from a difference is read as one
/// (Droggn's `trumps - trull` read "the number of 19 cards").
#[test]
fn articles_and_set_differences() {
    use tarot_engine::with_article;
    assert_eq!(with_article("accuso (combinations declared from the hand)"), "an accuso (combinations declared from the hand)");
    assert_eq!(with_article("Ultimo"), "an Ultimo");
    assert_eq!(with_article("Trull"), "a Trull");
    assert_eq!(with_article("the Pagat ultimo"), "the Pagat ultimo");
    let registry = tarot_testkit::registry();
    let text = |id: &str, rule: &str| {
        let d = describe(registry.get(id).unwrap(), &Default::default());
        d.rules.iter().find(|l| &*l.rule == rule).map(|l| l.text.clone()).unwrap_or_else(|| panic!("no {rule} in {id}"))
    };
    assert_eq!(
        text("droggn", "discard.require.1"),
        "a discard must meet \"a king only with an ordinary trump\": the number of kings in the discard is 0 or the number of trumps except trull in the discard is more than 0"
    );
    assert_eq!(
        text("tarocchini", "declaration.accuso.every-card-counts"),
        "every card shown in an accuso (combinations declared from the hand) must count: its value drops without it"
    );
    assert!(text("galician-tarok", "declaration.ultimo.allowed").starts_with("an Ultimo is allowed only when"));
    for r in registry.all() {
        for l in &describe(r, &Default::default()).rules {
            let t = format!(" {}", l.text);
            for bad in [" a a", " a e", " a i", " a o", " a u", " a A", " a E", " a I", " a O", " a U", " a the ", " a The "] {
                assert!(!t.contains(bad), "{}: {}: {}", r.id, l.rule, l.text);
            }
            assert!(!regex_like_count_of_cards(&l.text), "{}: {}: {}", r.id, l.rule, l.text);
        }
    }
}

/// "the number of 19 cards": a set of cards described by its size alone.
fn regex_like_count_of_cards(text: &str) -> bool {
    text.split("the number of ").skip(1).any(|rest| {
        let mut words = rest.split_whitespace();
        matches!((words.next(), words.next()), (Some(n), Some("cards")) if n.parse::<u32>().is_ok())
    })
}

/// A label's `{let}` names, filled with their values.
mod labels {
    use tarot_engine::testing::{fill, names, words, Value};
    use tarot_engine::Q;

    #[test]
    fn a_label_names_lets_in_braces_and_is_filled_with_their_values() {
        assert_eq!(names("a poignée shows exactly {poignee_sizes} trumps"), Ok(vec!["poignee_sizes"]));
        assert_eq!(names("no brace"), Ok(vec![]));
        assert!(names("open {poignee").unwrap_err().contains("does not close"));
        assert!(names("shut } here").unwrap_err().contains("did not open"));
        assert!(names("a {bad name}").unwrap_err().contains("not the name of a `let`"));
        let sizes = Value::List(std::sync::Arc::new(vec![Value::Num(Q::int(13)), Value::Num(Q::int(15)), Value::Num(Q::int(18))]));
        let filled = fill("a poignée shows exactly {poignee_sizes} trumps", |n| (n == "poignee_sizes").then(|| words(&sizes)));
        assert_eq!(filled, "a poignée shows exactly 13, 15 or 18 trumps");
        assert_eq!(fill("{unknown} stays", |_| None), "{unknown} stays");
    }
}

/// A condition on options, folded once an option's value is known.
mod folding {
    use tarot_engine::testing::fold;

    #[test]
    fn an_options_value_settles_its_comparisons() {
        assert_eq!(fold(r#"has(hand, T1) and ("fft" == "seed-004" or not has(hand, EX))"#), "has(hand, T1) and (not has(hand, EX))");
        assert_eq!(fold(r#""plays" == "cancels" and has(first_packet, T1)"#), "false and has(first_packet, T1)");
        assert_eq!(fold(r#""yes" == "yes" and x"#), "x");
        assert_eq!(fold(r#"if "a" != "b" then "keep" else "x""#), r#"if true then "keep" else "x""#);
    }
}

/// The play so far in words (Dreierles' Räuber at Steinmauern): the trick in play, its cards counted,
/// the card that led it, and a card kept back while other trumps (`while CLASS`) are held.
#[test]
fn the_play_so_far_reads_in_words() {
    let registry = tarot_testkit::registry();
    let options = [("rauber_rules".to_string(), serde_json::json!("Steinmauern"))].into_iter().collect();
    let d = tarot_engine::describe_for_people(registry.get("dreierles").unwrap(), &options);
    let text = |rule: &str| d.rules.iter().find(|l| &*l.rule == rule).map(|l| l.text.clone()).unwrap_or_else(|| panic!("no {rule}"));
    assert_eq!(
        text("play.keep.the-21-not-to-a-trick-holding-the-stiess"),
        "the 21 not to a trick holding the Stiess: T21 may not be led or played while other trumps are held, when the contract's name is rauber and the trick in play holds the Stiess"
    );
    let pfeife = text("play.keep.the-pfeife-not-before-the-third-trick-a-trump-is-led-to");
    assert!(pfeife.contains("the number of cards in the trick in play is more than 0 and trumps does not hold the card that led the trick in play"), "{pfeife}");
    assert!(text("play.must.play.the-pfeife-to-the-third-trick-a-trump-is-led-to").contains("the card that led t is 2"));
}

#[test]
fn a_forced_lead_whose_cards_are_a_formula_reads_in_words() {
    let registry = tarot_testkit::registry();
    let d = tarot_engine::describe_for_people(registry.get("cego").unwrap(), &Default::default());
    let rule = "play.must.lead.in-eine-leere-the-empty-card-kept-or-one-of-its-suit-leads-the-first-trick";
    let text = d.rules.iter().find(|l| &*l.rule == rule).map(|l| l.text.clone()).unwrap_or_else(|| panic!("no {rule}"));
    // The label, the form, then the formula in words: no function call of the rules language.
    let (label, formula) = text.split_once(": these cards must be led when held, as worked out at the player's turn: ").unwrap_or_else(|| panic!("{text}"));
    assert_eq!(label, "in Eine Leere the empty card kept or one of its suit leads the first trick");
    assert!(formula.starts_with("the suits of (the hand − (the hand − ") && formula.ends_with("; otherwise no card"), "{formula}");
    assert!(formula.contains("the contract's name is eine-leere and the player is the taker and the number of tricks is 0"), "{formula}");
    assert!(!formula.contains('(') || !["hand_of(", "suit_of(", "count("].iter().any(|f| formula.contains(f)), "{formula}");
}

/// A declaration's `allowed` that reads only options is settled by the options in force: the page
/// says allowed or not, with its reason, not "allowed only when yes" (Dreierles' knocks, option
/// `knocks`: up to four by default, none at the Steinmauern tournaments).
#[test]
fn an_allowed_on_options_alone_is_settled_by_them() {
    let registry = tarot_testkit::registry();
    let text = |knocks: i64, rule: &str| {
        let options = [("knocks".to_string(), serde_json::json!(knocks))].into_iter().collect();
        let d = tarot_engine::describe_for_people(registry.get("dreierles").unwrap(), &options);
        d.rules.iter().filter(|l| &*l.rule == rule).map(|l| l.text.clone()).collect::<Vec<_>>()
    };
    let kontra = text(4, "declaration.kontra.allowed");
    assert_eq!(kontra.len(), 3, "{kontra:?}");
    assert_eq!(kontra[1], "a Kontra is allowed with these options (only where the table knocks (option knocks))");
    assert!(kontra[2].starts_with("a Kontra is allowed only when not (the player passed when Dreier was still open to him)"), "{}", kontra[2]);
    assert_eq!(
        text(2, "declaration.kontra3.allowed")[0],
        "the third knock is not allowed with these options (only where the table's limit of knocks (option knocks) allows a third)"
    );
}

/// The text form (`describe`, what `tarot-archive rulesets show` prints) gives a formula written over
/// several lines whole: Cego's cards that take no trick, three lines without a `\`, and its forced
/// leads, two (each was cut after its first line).
#[test]
fn a_formula_over_several_lines_is_given_whole() {
    let registry = tarot_testkit::registry();
    let d = describe(registry.get("cego").unwrap(), &Default::default());
    let text = |rule: &str| d.rules.iter().find(|l| &*l.rule == rule).map(|l| l.text.clone()).unwrap_or_else(|| panic!("no {rule}"));
    let loses = text("play.loses.in-the-leere-games-the-cards-kept-and-shown-take-no-trick");
    assert!(
        loses.contains(
            r#"if (contract.name == "eine-leere" or contract.name == "zwei-leere" or contract.name == "zwei-verschiedene") and player == taker then kept_held(player) else none"#
        ),
        "{loses}"
    );
    let lead = text("play.must.lead.in-eine-leere-the-empty-card-kept-or-one-of-its-suit-leads-the-first-trick");
    assert!(lead.ends_with(r#"player == taker and count(tricks) == 0 then suit_of(kept_held(player)) else none"#), "{lead}");
}

/// `and` and `or` read alike in words: a side of the other kind is bracketed. Königrufen's
/// `valat_on = positive and (announced(valat) or slam_att or slam_def)` read "positive and a Valat
/// was announced or slam att or slam def", which says another rule.
#[test]
fn an_or_inside_an_and_is_bracketed_in_words() {
    let registry = tarot_testkit::registry();
    let d = describe(registry.get("koenigrufen").unwrap(), &Default::default());
    let valat = d.rules.iter().find(|l| &*l.rule == "score.valat_on").map(|l| l.text.clone()).unwrap();
    assert!(valat.contains("positive and (a Valat was announced or slam att or slam def)"), "{valat}");
    // One kind in a row needs no bracket.
    let d = describe(registry.get("cego").unwrap(), &Default::default());
    let eine = d.rules.iter().find(|l| &*l.rule == "discard.require.1").map(|l| l.text.clone()).unwrap();
    assert!(eine.contains("is not eine-leere or the number of pips in the hand is 1 or (the number of pips"), "{eine}");
}

/// A declaration's `allowed` that reads the game (the sides, the auction) is not settled by the
/// options, though a game not yet dealt gives it a value: Tapp Tarock's Pagat Ultimo, not in a
/// Bridscher, is allowed only when the attack has a player.
#[test]
fn an_allowed_that_reads_the_game_is_put_in_words() {
    let registry = tarot_testkit::registry();
    let d = tarot_engine::describe(registry.get("tapp-tarock-ocg").unwrap(), &Default::default());
    let ultimo: Vec<&str> = d.rules.iter().filter(|l| &*l.rule == "declaration.ultimo.allowed").map(|l| &*l.text).collect();
    assert_eq!(ultimo, ["a Pagat Ultimo is allowed only when the number of players in the attack is more than 0"]);
}
