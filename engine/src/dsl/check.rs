//! Checks that no statement says more than the compiler reads: each statement's words, value and
//! block against what its section allows (`shape`), statements written twice in one block (the
//! second would silently replace the first), a `without` written with more than its key, and the key a
//! `without` meant when it removes nothing.

use super::ast::Stmt;
use super::Diagnostic;

/// Whether a statement has a part (`= value`, `{ block }`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Required,
    Optional,
    Forbidden,
}
use Part::*;

/// What a statement may be written with: words (min, max), value, block, and how it is written.
struct Shape {
    words: (usize, usize),
    value: Part,
    block: Part,
    form: &'static str,
}

const MANY: usize = usize::MAX;

const fn sh(min: usize, max: usize, value: Part, block: Part, form: &'static str) -> Shape {
    Shape { words: (min, max), value, block, form }
}

/// The shape of statement `key` in `section` (`""` at the top level, `"contract"` in a contract's
/// block); `None` for a statement the section does not know (reported by the compiler itself).
fn shape(section: &str, key: &str) -> Option<Shape> {
    Some(match (section, key) {
        ("", "extends") => sh(1, 1, Forbidden, Forbidden, "`extends PARENT`"),
        ("", "source") => sh(2, 3, Forbidden, Forbidden, "`source ID \"file\" [\"title\"]`"),
        ("", "family") => sh(1, 1, Forbidden, Forbidden, "`family \"French\"` (or Italian, Swiss, Austrian, German)"),
        ("", "dated") => sh(1, 1, Forbidden, Forbidden, "`dated YEAR`, the year the source dates the rules from"),
        ("", "option") => sh(1, 2, Required, Forbidden, "`option NAME \"what it decides\" = [default, other, ...]`"),
        ("", "pack" | "counting" | "deal" | "bidding" | "call" | "discard" | "talon" | "buy" | "steal" | "sit-out-by-choice" | "play" | "fool" | "score" | "match") => {
            sh(0, 0, Forbidden, Required, "`SECTION { statements }`")
        }
        ("", "class") => sh(1, 2, Required, Forbidden, "`class NAME [\"label\"] = cards`"),
        ("", "declaration") => sh(1, 2, Forbidden, Required, "`declaration NAME \"label\" { ... }`"),
        ("", "let") => sh(1, 9, Required, Forbidden, "`let NAME = formula`, or `let NAME PARAM... = formula` (a formula with parameters, called `NAME(...)`)"),
        ("", "players") => sh(1, 1, Forbidden, Forbidden, "`players 4` or `players 2..6`"),
        ("", "sit-out") => sh(1, 5, Forbidden, Forbidden, "`sit-out dealer [from N] [scores-as defence]`"),
        ("", "sides") => sh(1, 1, Forbidden, Forbidden, "`sides taker`, `sides each` or `sides partners`"),
        ("", "annul") => sh(1, 2, Required, Forbidden, "`annul NAME \"label\" = condition`"),
        ("", "untouchable") => sh(1, 2, Required, Forbidden, "`untouchable CARD \"label\" = condition`"),
        ("", "on") => sh(2, 5, Required, Forbidden, "`on play CLASS \"label\" [to pot.NAME] = marques`"),
        ("", "pot") => sh(1, 2, Forbidden, Forbidden, "`pot NAME \"label\"`"),
        ("pack", "suit") => sh(1, MANY, Forbidden, Forbidden, "`suit S \"name\" [ranks high to low]`"),
        ("pack", "ranks") => sh(1, MANY, Forbidden, Forbidden, "`ranks K Q C J 10 9 8 7 6 5 4 3 2 1`"),
        ("pack", "rank-name") => sh(2, MANY, Forbidden, Forbidden, "`rank-name CODE \"name\" ...`"),
        ("pack", "reversed") => sh(1, 4, Required, Forbidden, "`reversed SUITS = condition`"),
        ("pack", "trumps") => sh(1, 1, Forbidden, Forbidden, "`trumps N`, N from 1 to 40"),
        ("pack", "fool") => sh(0, 2, Optional, Forbidden, "`fool [\"name\"] [trump [= condition]]`"),
        ("pack", "trump-order") => sh(1, MANY, Optional, Forbidden, "`trump-order T21 T20 ... T1` (every trump, high to low), or `trump-order T20 T21 ... T1 = condition`"),
        ("pack", "trump-name") => sh(2, MANY, Forbidden, Forbidden, "`trump-name T20 \"name\" ...`"),
        ("pack", "tie") => sh(3, MANY, Forbidden, Forbidden, "`tie T17 T18 ... \"later-wins\"|\"first-wins\"`"),
        ("pack", "code") => sh(2, MANY, Forbidden, Forbidden, "`code CODE CARD ...`"),
        ("counting", "group") => sh(0, 1, Optional, Forbidden, "`group N` or `group = formula of options`"),
        ("counting", "counter") => sh(1, 1, Required, Forbidden, "`counter V = cards`"),
        ("counting", "empty") => sh(1, 1, Forbidden, Forbidden, "`empty 0`"),
        ("counting", "surplus") => sh(1, 1, Forbidden, Forbidden, "`surplus exact`, `surplus nearest` or `surplus packets`"),
        ("counting", "short-packet") => sh(1, 1, Forbidden, Forbidden, "`short-packet over-half` or `short-packet sum-less-one`"),
        ("deal", "hand" | "dealer" | "dog" | "piles" | "pile_size" | "packets" | "dealer_packets" | "dog_packets" | "dog_apart" | "dog_after") => {
            sh(0, 0, Required, Forbidden, "`NAME = number`")
        }
        ("deal", "next_dealer" | "next_dealer_annulled") => {
            sh(0, 0, Required, Forbidden, "`next_dealer = \"first-hand\"` (or \"dealer\", \"taker\"), or a formula of options giving one of them")
        }
        ("deal", "dog_name") => sh(0, 0, Required, Forbidden, "`dog_name = \"Blinde\"`, the game's word for the dog"),
        ("deal", "cut") => sh(0, 0, Forbidden, Forbidden, "`cut`"),
        ("deal", "require") => sh(1, 1, Required, Forbidden, "`require \"label\" = condition`"),
        ("bidding", "turns") => sh(1, 1, Forbidden, Forbidden, "`turns once`, `turns until-one-left` or `turns rounds`"),
        ("bidding", "hold") => sh(0, 1, Optional, Forbidden, "`hold forehand`, `hold seniority` or `hold = formula of options`"),
        ("bidding", "no-reraise") => sh(0, 0, Forbidden, Forbidden, "`no-reraise`"),
        ("bidding", "first-turn") => sh(1, MANY, Forbidden, Forbidden, "`first-turn CONTRACT ...`"),
        ("bidding", "step") => sh(2, MANY, Forbidden, Forbidden, "`step CONTRACT CONTRACT ...` or `step lowest CONTRACT CONTRACT ...`"),
        ("bidding", "opening-round") => sh(1, MANY, Forbidden, Forbidden, "`opening-round CONTRACT ...`"),
        ("bidding", "opening-bidder") => {
            sh(1, 3, Optional, Forbidden, "`opening-bidder out` or `opening-bidder out from first-hand`, either one `= condition of options`")
        }
        ("bidding", "closing") => sh(1, MANY, Forbidden, Forbidden, "`closing CONTRACT ...`"),
        ("bidding", "out-of-turn") => sh(1, MANY, Forbidden, Forbidden, "`out-of-turn CONTRACT ...`"),
        ("bidding", "instead") => sh(2, 3, Required, Forbidden, "`instead WON CHOSEN \"label\" = condition on the winner's hand`"),
        ("bidding", "raise") => sh(
            1,
            MANY,
            Required,
            Forbidden,
            "`raise WON \"label\" = condition on the winner's hand`, `raise WON except CONTRACT ... \"label\" = condition` or `raise WON to CONTRACT ... \"label\" = condition`",
        ),
        ("bidding", "must-bid") => sh(1, 2, Required, Forbidden, "`must-bid CONTRACT \"label\" = condition on the hand`"),
        ("bidding", "reserve") => sh(1, 2, Required, Forbidden, "`reserve NAME \"label\" = [contract names]`"),
        ("bidding", "contract") => sh(1, 2, Forbidden, Required, "`contract NAME \"label\" { attribute = value; ... }`"),
        ("bidding", "all-pass") => {
            sh(0, 5, Optional, Forbidden, "`all-pass`, `all-pass annul`, `all-pass play CONTRACT`, `all-pass play CONTRACT by \"who\" = condition on a player's hand as dealt` or `all-pass pay PAYERS to PAYEES [\"label\"] = amount`")
        }
        ("contract", "settle") => sh(0, 0, Required, Forbidden, "`settle = amount each opponent pays the taker`"),
        ("contract", "by") => sh(0, 1, Required, Forbidden, "`by \"who\" = condition on the bidder and his hand as dealt`"),
        ("contract", "require") => sh(1, 1, Required, Forbidden, "`require \"label\" = condition on the game once the announcements are closed`"),
        ("contract", _) => sh(0, 0, Required, Forbidden, "`attribute = value`"),
        ("call", "levels") => sh(0, 0, Required, Forbidden, "`levels = [rank(K), rank(Q), ...]`"),
        ("call", "callable-levels") => sh(0, 0, Required, Forbidden, "`callable-levels = number of levels`"),
        ("call", "opening-lead-excludes") => sh(0, 0, Required, Forbidden, "`opening-lead-excludes = cards`"),
        ("discard", "taker" | "dealer" | "others") => sh(0, 0, Required, Forbidden, "`NAME = number of cards`"),
        ("discard", "forbid" | "unless-unavoidable" | "penalize") => sh(0, 1, Required, Forbidden, "`NAME \"label\" = cards`"),
        ("discard", "penalty") => sh(0, 0, Required, Forbidden, "`penalty = formula`"),
        ("buy", "cards") => sh(0, 0, Required, Forbidden, "`cards = number of cards`"),
        ("talon", "packets") => sh(0, 0, Required, Forbidden, "`packets = number of packets`"),
        ("talon", "discard") => sh(0, 0, Required, Forbidden, "`discard = \"after\" | \"before\"`"),
        ("talon", "given") => sh(0, 0, Required, Forbidden, "`given = number of the packet the taker gets`"),
        ("talon", "unseen") => sh(0, 0, Forbidden, Forbidden, "`unseen`"),
        ("steal", "cards") => sh(0, 1, Required, Forbidden, "`cards \"label\" = cards that may be stolen`"),
        ("sit-out-by-choice", "allowed") => sh(0, 0, Required, Forbidden, "`allowed = condition on the table`"),
        ("sit-out-by-choice", "fee") => sh(0, 0, Required, Forbidden, "`fee = [fee of first hand, of the second, ...]`"),
        ("steal", "cutter" | "dealer") => sh(0, 0, Required, Forbidden, "`cutter = \"some\"` or `dealer = \"all\"`"),
        ("talon", "rest") => sh(0, 0, Required, Forbidden, "`rest = \"defence\" | \"taker\"`"),
        ("discard", "require") => sh(1, 1, Required, Forbidden, "`require \"label\" = condition`"),
        ("discard", "fault") => sh(2, 4, Required, Forbidden, "`fault size \"label\" [by-side] ends-deal = amount`"),
        ("discard", "goes-to") => sh(0, 0, Required, Forbidden, "`goes-to = \"discarder\" | \"opponents\"`"),
        ("declaration", "when") => {
            sh(1, 1, Forbidden, Forbidden, "`when before-play`, `when after-discard`, `when first-play`, `when after-deal`, `when after-opening-round`, `when after-play` or `when before-take`")
        }
        ("declaration", "by") => sh(1, 1, Forbidden, Forbidden, "`by taker`, `by attack`, `by defence`, `by any` or `by any-side`"),
        ("declaration", "shows") => sh(0, 0, Required, Forbidden, "`shows = cards`"),
        ("declaration", "allowed") => sh(0, 1, Required, Forbidden, "`allowed = condition` or `allowed \"reason\" = condition`"),
        ("declaration", "keeps") => sh(0, 0, Required, Forbidden, "`keeps = cards`"),
        ("declaration", "compulsory") => sh(0, 0, Optional, Forbidden, "`compulsory` or `compulsory = condition of options`"),
        ("declaration", "in-turn") => sh(0, 2, Optional, Forbidden, "`in-turn`, `in-turn from dealer` or `in-turn from dealer = condition of options`"),
        ("declaration", "ends-match") => sh(0, 2, Optional, Forbidden, "`ends-match` or `ends-match after-deal-by \"who\" = condition on each player and his hand as dealt`"),
        ("declaration", "ends-deal") => sh(0, 1, Forbidden, Forbidden, "`ends-deal` or `ends-deal annul`"),
        ("declaration", "every-card-counts") => sh(0, 0, Forbidden, Forbidden, "`every-card-counts`"),
        ("declaration", "from") => sh(1, 1, Forbidden, Forbidden, "`from hand` or `from hand-and-discard`"),
        ("declaration", "require") => sh(0, 1, Required, Forbidden, "`require \"what is required\" = condition`"),
        ("declaration", "value" | "paid-by") => sh(0, 0, Required, Forbidden, "`NAME = formula`"),
        ("declaration", "paid") => sh(0, 1, Forbidden, Forbidden, "`paid` or `paid by-everyone`"),
        ("play", "lead" | "direction") => sh(0, 0, Required, Forbidden, "`NAME = formula`"),
        ("play", "last-trump") => sh(0, 0, Required, Forbidden, "`last-trump = cards`"),
        ("play", "trumps-win") => sh(0, 0, Required, Forbidden, "`trumps-win = condition`"),
        ("play", "must") => sh(1, 4, Optional, Forbidden, "`must follow|trump|overtrump|beat [= condition]`, `must lead|play CARDS \"label\" [= condition]` or `must play CARDS \"label\" instead [= condition]`"),
        ("play", "keep") => sh(2, 4, Optional, Forbidden, "`keep CARDS \"label\" [while CLASS] [= condition]`"),
        ("play", "withhold") => sh(2, 2, Optional, Forbidden, "`withhold CARDS \"label\" [= condition]`"),
        ("play", "excuse") => sh(2, 2, Optional, Forbidden, "`excuse CARDS \"label\" [= condition]`"),
        ("play", "loses") => sh(1, 2, Optional, Forbidden, "`loses CARDS \"label\" [= condition]` or `loses \"label\" = cards`"),
        ("play", "lead-together") => sh(3, 7, Required, Forbidden, "`lead-together N \"label\" highest SUITS = condition`"),
        ("play", "end") => sh(1, 1, Required, Forbidden, "`end \"label\" = condition`"),
        ("play", "next-lead") => sh(1, 1, Required, Forbidden, "`next-lead \"label\" = formula`"),
        ("play", "wins") => sh(2, 2, Required, Forbidden, "`wins CARD \"label\" = cards`"),
        ("play", "fault") => sh(2, 4, Required, Forbidden, "`fault follow|trump|overtrump \"label\" [gives-back CLASS] = amount`"),
        ("fool", "excuse") => sh(0, 0, Forbidden, Forbidden, "`excuse`"),
        ("fool", "slam_wins") => sh(0, 0, Optional, Forbidden, "`slam_wins` or `slam_wins = \"led\"|\"played\"`"),
        ("fool", "led" | "keep" | "last_trick" | "shut_out") => sh(0, 0, Required, Forbidden, "`NAME = \"setting\"`"),
        ("fool", "deadline") => sh(0, 0, Required, Forbidden, "`deadline = number of tricks`"),
        ("score", "let") => sh(1, 1, Required, Forbidden, "`let NAME = formula`"),
        ("score", "term") => sh(1, 2, Required, Forbidden, "`term NAME \"label\" = formula`"),
        ("score", "pay") => sh(3, 4, Required, Forbidden, "`pay PAYERS to PAYEES [\"label\"] = amount`"),
        ("score", "note") => sh(1, 1, Required, Forbidden, "`note \"text\" = condition`"),
        ("score", "standing" | "winner") => sh(0, 0, Required, Forbidden, "`NAME = formula`"),
        ("match", "deals" | "target") => sh(0, 0, Required, Forbidden, "`NAME = number`"),
        _ => return None,
    })
}

/// A statement that is a switch: present means on. Its value, if written, is refused with a hint.
fn is_switch(section: &str, key: &str) -> bool {
    matches!(
        (section, key),
        ("fool", "excuse")
            | ("deal", "cut")
            | ("declaration", "paid")
            | ("declaration", "ends-deal")
            | ("declaration", "every-card-counts")
            | ("bidding", "no-reraise")
            | ("talon", "unseen")
    )
}

/// Reports every statement (blocks included) written with more or fewer words than it takes, or a
/// value or block it does not take. `section` is the block the statements are in (`""` at the top).
pub fn shapes(stmts: &[Stmt], section: &str, errors: &mut Vec<Diagnostic>) {
    for s in stmts {
        let Some(sh) = shape(section, &s.key) else {
            continue;
        };
        let form = sh.form.replace("NAME", &s.key).replace("SECTION", &s.key);
        let mut err = |message: String| errors.push(Diagnostic { file: s.file.to_string(), pos: s.pos, message });
        let n = s.args.len();
        if n < sh.words.0 {
            err(format!("`{}` is missing words: it is written {form}", s.key));
        } else if n > sh.words.1 {
            let extra: Vec<&str> = s.args[sh.words.1..].iter().map(|w| w.text.as_str()).collect();
            err(format!("`{}` takes at most {} word(s), so `{}` would be ignored: it is written {form}", s.key, sh.words.1, extra.join(" ")));
        }
        match (sh.value, &s.value) {
            (Forbidden, Some(_)) if is_switch(section, &s.key) => err(format!(
                "`{}` is a switch and takes no value: writing it turns it on, and to turn it off leave it out \
                 (in a ruleset that extends another, `without {}` in the same block)",
                s.key, s.key
            )),
            (Forbidden, Some(_)) => err(format!("`{}` takes no value, so `= ...` would be ignored: it is written {form}", s.key)),
            (Required, None) => err(format!("`{}` needs a value: the statement ends with `= ...`", s.key)),
            _ => {}
        }
        match (sh.block, &s.block) {
            (Forbidden, Some(_)) => err(format!("`{}` takes no block, so the statements in `{{ ... }}` would be ignored: it is written {form}", s.key)),
            (Required, None) => err(format!("`{}` needs a block of statements: it is written {form}", s.key)),
            _ => {}
        }
        if section.is_empty() && matches!(s.key.as_str(), "extends" | "source") && s.cite.is_some() {
            err(format!("`{}` is not a rule, so a citation on it would go nowhere", s.key));
        }
        if section == "bidding" && s.key == "all-pass" {
            let words: Vec<&str> = s.args.iter().map(|w| w.text.as_str()).collect();
            match (words.as_slice(), &s.value) {
                ([] | ["annul"] | ["play", _], None) | (["play", _, "by", _], Some(_)) => {}
                // A payment when the deal is thrown in: its own form is checked where it is compiled.
                (["pay", ..], Some(_)) => {}
                (["pay", ..], None) => err(format!("`all-pass {}` needs an amount (`= ...`): what each payee receives from each payer when everyone passes", words.join(" "))),
                ([] | ["annul"] | ["play", _], Some(_)) => err(format!(
                    "`all-pass {}` takes no value: a condition (`= ...`) names the player who must play a contract when everyone passes, written `all-pass play CONTRACT by \"who\" = condition`",
                    words.join(" ")
                )),
                (["play", _, "by", _], None) => err(format!(
                    "`all-pass {}` needs a condition (`= ...`) on a player's hand as dealt: the first player in turn who meets it plays the contract",
                    words.join(" ")
                )),
                _ => err(format!(
                    "`all-pass {}`: when everyone passes the deal is annulled, so the only word it takes is `annul`, unless a contract of the block is played (`all-pass play CONTRACT`, each for himself, or `all-pass play CONTRACT by \"who\" = condition`, by the player named)",
                    words.join(" ")
                )),
            }
        }
        if let Some(b) = &s.block {
            let inner = if section == "bidding" && s.key == "contract" { "contract" } else { s.key.as_str() };
            shapes(b, inner, errors);
        }
    }
}

/// Reports every `without` (blocks included) written with a value or a block: it removes the
/// parent's statement by its key and reads nothing else, so what follows the key would be dropped.
pub fn withouts(stmts: &[Stmt], errors: &mut Vec<Diagnostic>) {
    for s in stmts {
        if s.key != "without" {
            if let Some(b) = &s.block {
                withouts(b, errors);
            }
            continue;
        }
        let key: Vec<&str> = s.args.iter().map(|w| w.text.as_str()).collect();
        let key = key.join(" ");
        let mut err = |message: String| errors.push(Diagnostic { file: s.file.to_string(), pos: s.pos, message });
        if s.value.is_some() {
            err(format!(
                "`without {key}` takes no value, so `= ...` would be ignored: it removes the parent's statement whole; \
                 to give the statement another value, write the statement itself"
            ));
        }
        if s.block.is_some() {
            err(format!(
                "`without {key}` takes no block, so the statements in `{{ ... }}` would be ignored: it removes the parent's statement whole; \
                 to change part of a block, write the block with the statements to add or replace, and `without KEY` inside it for those to remove"
            ));
        }
    }
}

/// Reports statements written twice in one block of one file: the second would replace the first
/// (or, in a child, the first would be lost) without a word. `key` is how `extends` matches them.
pub fn duplicates(stmts: &[Stmt], key: &dyn Fn(&Stmt) -> String, errors: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(String, &Stmt)> = vec![];
    for s in stmts {
        if s.key == "without" {
            continue;
        }
        let k = key(s);
        match seen.iter().find(|(x, _)| *x == k) {
            Some((_, first)) => errors.push(Diagnostic {
                file: s.file.to_string(),
                pos: s.pos,
                message: format!("`{k}` is written twice in this block (first at line {}): only one can count; remove one or give it another name", first.pos.line),
            }),
            None => seen.push((k, s)),
        }
        if let Some(b) = &s.block {
            duplicates(b, key, errors);
        }
    }
}

/// The edit distance between two keys, to suggest what a `without` meant.
pub fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + (ca != cb) as usize).min(row[j] + 1).min(row[j + 1] + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
