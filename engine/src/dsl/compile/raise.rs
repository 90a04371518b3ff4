//! `raise` in the bidding section: the contracts the auction's winner may name at his last word in
//! place of the one he won, played with him as taker.

use super::*;

impl Compiler {
    /// `raise WON ["label"] = condition` (every contract above WON that a taker plays), `raise WON
    /// except C ...` (those but C ...) or `raise WON to C ...` (only C ...): checked against the
    /// contracts of the block, its `all-pass play`, its `instead`s and the raises read before it.
    pub(super) fn raise(&mut self, st: &Stmt, when: Expr, b: &Bidding) -> Option<Raise> {
        let words: Vec<&Word> = st.args.iter().filter(|w| !w.quoted).collect();
        let labels: Vec<&Word> = st.args.iter().filter(|w| w.quoted).collect();
        let won = words.first()?.text.clone();
        if labels.len() > 1 || st.args.last().is_some_and(|w| !w.quoted) && !labels.is_empty() {
            self.err_at(st, "`raise` takes one label, written last: `raise WON except CONTRACT ... \"label\" = condition`");
            return None;
        }
        let label = labels.first().map(|w| w.text.clone()).unwrap_or_else(|| format!("the winner with {won}"));
        let find = |name: &str| b.contracts.iter().position(|c| c.name == name);
        let known = || b.contracts.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ");
        let Some(w) = find(&won) else {
            self.err_at(st, format!("`raise {won}`: there is no contract `{won}`; the contracts are {}", known()));
            return None;
        };
        // Contracts played with no taker (all passing, or chosen by `instead`) are not raised to.
        let no_taker = |c: usize| b.all_pass_play == Some(c) || b.instead.iter().any(|i| i.chosen == c);
        let (how, named) = match words.get(1).map(|x| x.text.as_str()) {
            None => ("", vec![]),
            Some(how @ ("except" | "to")) if words.len() > 2 => (how, words[2..].to_vec()),
            Some(other) => {
                self.err_at(st, format!("`raise {won} {other}`: after the contract won comes `except CONTRACT ...` or `to CONTRACT ...`, or nothing (every contract above it)"));
                return None;
            }
        };
        let mut listed = vec![];
        for x in named {
            let Some(c) = find(&x.text) else {
                self.err_at(st, format!("`raise {won} {how} {}`: there is no contract `{}`; the contracts are {}", x.text, x.text, known()));
                return None;
            };
            if listed.contains(&c) {
                self.err_at(st, format!("`raise {won} {how}` names contract `{}` twice", x.text));
                return None;
            }
            if c <= w {
                self.err_at(st, format!("`raise {won} {how} {}`: {} is not above {won}; a raise names contracts above the one won (later in the block)", x.text, x.text));
                return None;
            }
            if no_taker(c) {
                self.err_at(
                    st,
                    format!(
                        "`raise {won} {how} {}`: {} is played with no taker (`instead` or `all-pass play`); the last word would not say whether {} plays it as taker",
                        x.text, x.text, won
                    ),
                );
                return None;
            }
            listed.push(c);
        }
        let to: Vec<usize> = match how {
            "to" => {
                listed.sort_unstable();
                listed
            }
            _ => (w + 1..b.contracts.len()).filter(|c| !no_taker(*c) && !listed.contains(c)).collect(),
        };
        if to.is_empty() {
            self.err_at(st, format!("`raise {won}` leaves no contract to raise to"));
            return None;
        }
        if b.raise.iter().any(|r| r.won == w) {
            self.err_at(st, format!("`raise {won}` is written twice: one raise per contract won (join the conditions with `or`)"));
            return None;
        }
        Some(Raise { won: w, to, label, when, clause: self.clause(st, format!("bidding.raise.{won}")) })
    }
}
