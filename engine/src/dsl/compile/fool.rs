//! `fool`: what the Excuse does (led, kept, in the last trick, at a slam) and whether the section
//! applies to the pack.

use super::*;

impl Compiler {
    pub(super) fn fool(&mut self, s: Option<&Stmt>) -> FoolRules {
        let mut f = FoolRules {
            excuse: None,
            led: Choice::Is(FoolLed::NextCardSetsSuit),
            keep: Choice::Is(FoolKeep::Keep),
            last_trick: Choice::Is(FoolLast::Keep),
            slam_wins: None,
            slam_wins_when: None,
            shut_out: None,
            deadline: None,
            clause: Clause { rule: "fool".into(), at: "".into(), source: None, source_file: None },
        };
        let Some(s) = s else { return f };
        f.clause = self.clause(s, "fool");
        self.settings(s);
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "excuse" => f.excuse = Some(self.clause(st, "fool.excuse")),
                "slam_wins" => {
                    f.slam_wins = Some(self.clause(st, "fool.slam_wins"));
                    f.slam_wins_when = if st.value.is_some() { self.word(st, Ctx::AfterAuction) } else { None };
                }
                "led" => f.led = self.word(st, Ctx::AfterAuction).unwrap_or(f.led),
                "keep" => f.keep = self.word(st, Ctx::AfterAuction).unwrap_or(f.keep),
                "last_trick" => f.last_trick = self.word(st, Ctx::AfterAuction).unwrap_or(f.last_trick),
                "shut_out" => f.shut_out = self.word(st, Ctx::AfterAuction),
                "deadline" => {
                    // A number of tricks: a constant is checked here, a formula when a game is set up.
                    if let Some(e) = self.value(st, Ctx::Setup) {
                        match &e {
                            Expr::Const(Value::Num(q)) if !q.is_integer() || *q < Q::ZERO => self.err_at(st, format!("`deadline` is a number of tricks (0, 1, 2, ...), not {q}")),
                            Expr::Const(Value::Num(_)) | Expr::Opt(_) => f.deadline = Some((e, self.clause(st, "fool.deadline"))),
                            Expr::Const(v) => self.err_at(st, format!("`deadline` is a number of tricks (0, 1, 2, ...), not {}", v.type_name())),
                            _ => f.deadline = Some((e, self.clause(st, "fool.deadline"))),
                        }
                    }
                }
                other => self.err_at(st, format!("unknown fool statement `{other}`; expected excuse, led, keep, last_trick, slam_wins, shut_out or deadline")),
            }
        }
        f
    }

    /// The `fool { ... }` rules are the Excuse's: where the pack has no Fool, or its Fool is a trump
    /// whatever the options (`fool "name" trump`), they would never apply, and the compiler accepts no
    /// statement it then ignores. Where the Fool is a trump by an option (`fool "name" trump =
    /// condition`), they apply to the choices that make it the Excuse, and the description says so.
    pub(super) fn fool_section_applies(&mut self, section: Option<&Stmt>, pack: &Pack) {
        let Some(s) = section else { return };
        let by_option = self.fool_trump_when.as_ref().is_some_and(|(_, _, differs)| *differs);
        if pack.cards.contains(FOOL) || by_option {
            return;
        }
        // The Fool made a trump is the top trump, which records may write `EX`.
        let why = if pack.aliases.iter().any(|(code, _)| code == "EX") {
            format!("{} is a trump (`fool \"name\" trump` in the pack) under every choice of the options", pack.fool_name)
        } else {
            "the pack has no Fool".to_string()
        };
        self.err_at(
            s,
            format!("the `fool {{ ... }}` rules are the Excuse's, and {why}: they would never apply; remove the section (in a ruleset that extends another, `without fool`)"),
        );
    }
}
