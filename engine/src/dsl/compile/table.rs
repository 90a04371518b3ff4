//! The table: who sits out (`sit-out`), and who plays with whom (`sides`).

use super::*;

impl Compiler {
    /// `sit-out`: its clause, the smallest table at which the dealer sits out (0: at every table),
    /// whether it is the player opposite the dealer instead, and whether the sitter pays and receives
    /// as a member of the defence (`scores-as defence`).
    pub(super) fn sit_out(&mut self, stmts: &[Stmt], players: (usize, usize)) -> (Option<Clause>, usize, bool, bool) {
        let mut sit_out_from = 0;
        let mut sit_out_opposite = false;
        let mut sit_out_scores = false;
        let sit_out = stmts.iter().find(|s| s.key == "sit-out").and_then(|s| {
            let mut words: Vec<&str> = s.args.iter().map(|w| w.text.as_str()).collect();
            // `... scores-as defence`: the sitter is dealt nothing and makes no move, but pays and
            // receives as one more member of the defence (Dreierles' dealer at four, "a third
            // opponent"). The last words of the statement, after the forms below.
            if let Some(i) = words.iter().position(|w| *w == "scores-as") {
                if words[i + 1..] != ["defence"] {
                    self.err_at(s, "`scores-as defence` ends the statement: the sitter pays and receives as a member of the defence, the only side he may score with");
                    return None;
                }
                sit_out_scores = true;
                words.truncate(i);
            }
            // `sit-out opposite from N`: the player opposite the dealer, at a table of N (Danish
            // Tarok: three play, a fourth sits opposite the dealer). Only where "opposite" is one seat.
            if words.first() == Some(&"opposite") {
                if !matches!(words[..], ["opposite", "from", n] if n.parse::<usize>().ok() == Some(players.1) && players.1.is_multiple_of(2) && players.1 >= 4) {
                    self.err_at(
                        s,
                        format!(
                            "`sit-out opposite from N`: the player opposite the dealer sits out at a table of N, which must be the largest table and even (`players` allows up to {}), so that one seat is opposite",
                            players.1
                        ),
                    );
                    return None;
                }
                sit_out_opposite = true;
                words[0] = "dealer";
            }
            // `sit-out dealer from N`: only at a table of N or more (Droggn: three play, a fourth deals).
            let from = match words[..] {
                ["dealer", "from", n] => match n.parse::<usize>() {
                    Ok(n) if n >= 3 && n <= players.1 => Some(n),
                    _ => {
                        self.err_at(
                            s,
                            format!(
                                "`sit-out dealer from N`: N is the smallest table at which the dealer sits out, a whole number from 3 to the largest table ({}), not `{n}`",
                                players.1
                            ),
                        );
                        return None;
                    }
                },
                _ => None,
            };
            sit_out_from = from.unwrap_or(0);
            if words != ["dealer"] && from.is_none() {
                self.err_at(s, "`sit-out dealer` is the only form, or `sit-out dealer from N` (the dealer deals to the others and sits the deal out), or `sit-out opposite from N` (the player opposite the dealer sits out), each followed by `scores-as defence` where the sitter pays and receives as a defender");
                None
            } else if players.0.max(sit_out_from) < 3 {
                self.err_at(s, format!("`sit-out dealer` needs a table of 3 or more, so that two play; `players` allows {}", players.0));
                None
            } else {
                Some(self.clause(s, "sit-out"))
            }
        });
        (sit_out, sit_out_from, sit_out_opposite, sit_out_scores)
    }

    pub(super) fn sides(&mut self, stmts: &[Stmt]) -> Sides {
        match stmts.iter().find(|s| s.key == "sides") {
            Some(s) => match s.args.first().map(|w| w.text.as_str()) {
                Some("taker") => Sides::Taker,
                Some("each") => Sides::Each,
                Some("partners") => Sides::Partners,
                _ => {
                    self.err_at(s, "`sides` is `taker` (a taker against the defence), `each` (each player for himself) or `partners` (partners sitting opposite)");
                    Sides::Each
                }
            },
            None => Sides::Each,
        }
    }
}
