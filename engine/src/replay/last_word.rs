//! The auction winner's last word (`instead`, `raise`): once the auction is won, a winner whose hand
//! meets a condition says once more which contract is played: the one won, one played in its place
//! with no taker (`instead`), or a contract he raises it to and plays as taker (`raise`).

use crate::ir::*;

use super::bidding::Bid;
use super::{Game, Stop};

/// What the winner `t`, having won with `won`, may say at his last word besides `won` itself.
pub(super) struct LastWord<'r> {
    /// The `instead`s whose condition his hand meets.
    insteads: Vec<&'r Instead>,
    /// The raise whose condition his hand meets, with the contracts he may raise to (those of its
    /// list that he may bid, `by`).
    raise: Option<(&'r Raise, Vec<usize>)>,
}

impl<'r> LastWord<'r> {
    /// Whether he has a last word at all.
    pub(super) fn is_open(&self) -> bool {
        !self.insteads.is_empty() || self.raise.as_ref().is_some_and(|(_, to)| !to.is_empty())
    }

    /// The contracts he may name, by name: `won` first, then those of `instead`, then the raises.
    pub(super) fn names(&self, b: &Bidding, won: usize) -> Vec<String> {
        let raised = self.raise.iter().flat_map(|(_, to)| to.iter().copied());
        std::iter::once(won).chain(self.insteads.iter().map(|i| i.chosen)).chain(raised).map(|c| b.contracts[c].name.clone()).collect()
    }

    /// The rule cited when `said` is not allowed or said by another player: the raise's for a
    /// contract above the one won where a raise is open, else the first `instead`'s, else the raise's.
    fn clause(&self, said: Option<Bid>, won: usize) -> &'r Clause {
        let raising = matches!(said, Some(Bid::Contract(c)) if c > won && !self.insteads.iter().any(|i| i.chosen == c));
        match (&self.raise, self.insteads.first()) {
            (Some((r, _)), _) if raising => &r.clause,
            (_, Some(i)) => &i.clause,
            (Some((r, _)), None) => &r.clause,
            (None, None) => unreachable!("a last word is open only with a choice"),
        }
    }
}

impl<'s, 'r> Game<'s, 'r> {
    /// What the auction's winner `t`, having won with `won`, may say at his last word.
    pub(super) fn last_word(&self, t: u8, won: usize) -> Result<LastWord<'r>, Stop> {
        let mut open = LastWord { insteads: vec![], raise: None };
        let Some(b) = &self.rules().bidding else { return Ok(open) };
        let dealt = self.dealt[t as usize];
        for i in b.instead.iter().filter(|i| i.won == won) {
            if self.hand_holds(t, dealt, &i.when, &i.clause)? {
                open.insteads.push(i);
            }
        }
        if let Some(r) = b.raise.iter().find(|r| r.won == won) {
            if self.hand_holds(t, dealt, &r.when, &r.clause)? {
                let mut to = vec![];
                for &c in &r.to {
                    // A contract only some may bid (`by`) is raised to by them alone.
                    if b.contracts[c].by.as_ref().map_or(Ok(true), |by| self.hand_holds(t, dealt, &by.when, &by.clause))? {
                        to.push(c);
                    }
                }
                open.raise = Some((r, to));
            }
        }
        Ok(open)
    }

    /// The winner's last word: `won` again, to play it; a contract of `instead` in its place, each for
    /// himself; or a contract of his `raise`, played with him as taker.
    pub(super) fn choose(&mut self, p: u8, choice: Bid, t: u8, won: usize) -> Result<(), Stop> {
        let b = self.rules().bidding.as_ref().expect("choosing needs bidding");
        let open = self.last_word(t, won)?;
        let names = || open.names(b, won).join(" or ");
        let said = |choice: Bid| match choice {
            Bid::Contract(c) => b.contracts[c].name.clone(),
            Bid::Pass => "pass".to_string(),
            Bid::Reserve => b.reserve.as_ref().map_or(String::new(), |r| r.name.clone()),
        };
        if p != t {
            let clause = open.clause(Some(choice), won);
            let (who, label) = (self.name(t), &b.contracts[won].label);
            let message = match open.raise {
                // With a raise open, the message names who spoke and what he said.
                Some(_) => format!("{who} won the auction with {label} and says first what he plays ({}): {} may not say {} now", names(), self.name(p), said(choice)),
                None => format!("{who} won the auction with {label} and says first whether to play it: {}", names()),
            };
            return Err(self.violation(clause, p, message));
        }
        match choice {
            Bid::Contract(c) if c == won => {
                self.choosing = None;
                self.won(t, c)
            }
            Bid::Contract(c) if open.insteads.iter().any(|i| i.chosen == c) => {
                self.choosing = None;
                let i = open.insteads.iter().find(|i| i.chosen == c).expect("just found");
                self.notes.push(format!(
                    "{} won with {} and chose {} instead: each plays for himself ({})",
                    self.name(t),
                    b.contracts[won].label,
                    b.contracts[c].label,
                    i.clause.rule
                ));
                self.each_for_himself(c);
                Ok(())
            }
            Bid::Contract(c) if open.raise.as_ref().is_some_and(|(_, to)| to.contains(&c)) => {
                self.choosing = None;
                let (r, _) = open.raise.as_ref().expect("just found");
                self.notes.push(format!("{} won with {} and raised it to {} ({})", self.name(t), b.contracts[won].label, b.contracts[c].label, r.clause.rule));
                self.won(t, c)
            }
            _ => {
                let clause = open.clause(Some(choice), won);
                Err(self.violation(clause, p, format!("{} won the auction with {} and now says {}, not {}", self.name(t), b.contracts[won].label, names(), said(choice))))
            }
        }
    }

    /// Any move but the winner's last word while he is still to say it.
    pub(super) fn last_word_missing(&self, p: Option<u8>) -> Stop {
        let (t, won) = self.choosing.expect("only while the winner is to say what he plays");
        let b = self.rules().bidding.as_ref().expect("choosing needs bidding");
        let open = match self.last_word(t, won) {
            Ok(open) => open,
            Err(stop) => return stop,
        };
        let clause = open.clause(None, won);
        let message =
            format!("the last word is missing: {} won the auction with {} and says first what he plays: {}", self.name(t), b.contracts[won].label, open.names(b, won).join(" or "));
        super::clause_violation(clause, self.event, p.map(|p| self.name(p)), message)
    }
}
