//! The `score` section: a finished game scored (its `let` values, notes, terms and payments, each
//! player's standing and whether he wins), and a value written for people (`Figure`).

use std::sync::Arc;

use crate::expr::{eval, too_large, truthy, Value};
use crate::ir::Account;
use crate::num::Q;
use crate::verdict::{Figure, LedgerEntry, Outcome, PlayerResult, PotResult};

use super::{Game, Stop, MAX_PLAYERS};

impl<'s, 'r> Game<'s, 'r> {
    /// A value for people: players by name, tricks by number, cards by code.
    fn figure(&self, v: &Value) -> Figure {
        match v {
            Value::Num(q) => Figure::Num(*q),
            Value::Bool(b) => Figure::Bool(*b),
            Value::Str(s) => Figure::Text(s.clone()),
            Value::Player(p) => Figure::Text(self.name(*p)),
            Value::Players(m) => Figure::List((0..self.names.len() as u8).filter(|p| m >> p & 1 == 1).map(|p| Figure::Text(self.name(p))).collect()),
            Value::Trick(t) => Figure::Trick(*t),
            Value::Cards(c) => Figure::List(c.iter().map(|c| Figure::Text(c.code_str().into())).collect()),
            Value::List(l) => Figure::List(l.iter().map(|x| self.figure(x)).collect()),
        }
    }

    /// What each player (by seat, as `seat` finds him in a payment) got less what he paid. A
    /// balance too large to keep exact is refused with the payment that makes it so.
    pub(super) fn balances<'l>(&self, ledger: impl Iterator<Item = &'l LedgerEntry>, seat: impl Fn(&Option<Arc<str>>) -> Option<usize>) -> Result<[Q; MAX_PLAYERS], Stop> {
        let mut balance = [Q::ZERO; MAX_PLAYERS];
        for l in ledger {
            for (p, sign) in [(seat(&l.from), "-"), (seat(&l.to), "+")] {
                let Some(p) = p else { continue };
                let b = balance[p];
                let next = if sign == "+" { b.checked_add(l.amount) } else { b.checked_sub(l.amount) };
                balance[p] = next.ok_or_else(|| self.input(too_large(&format!("{}'s balance {b} {sign} {} ({}, {})", self.names[p], l.amount, l.label, l.rule))))?;
            }
        }
        Ok(balance)
    }

    /// Scores a finished game. The sitter who scores (`sit-out ... scores-as defence`) is scored as
    /// one more member of the defence, with no cards and no tricks.
    pub(super) fn score(&self) -> Result<(Outcome, Vec<LedgerEntry>, Vec<String>), Stop> {
        let rules = self.rules();
        let sc = &rules.score;
        let mut env = self.env(None);
        env.scoring = true;
        // Everyone scored, by seat: the players, then the sitter who scores.
        let scored = self.names.len() as u8;
        env.lets = Vec::with_capacity(self.setup.constants.len() + sc.lets.len());
        env.lets.extend_from_slice(&self.setup.constants);
        // Each `let`'s figure, by its place in the score; none where it has no value in this game (its
        // formula fails: an error only where a formula that is evaluated reads it).
        let mut values = Vec::with_capacity(sc.lets.len());
        for l in &sc.lets {
            if l.per_player {
                // Worked out for each player below; nothing before reads it (the compiler sees to
                // that).
                values.push((l.name.clone(), Some(Figure::List(Vec::with_capacity(self.n())))));
                env.lets.push(Ok(Value::Bool(false)));
                continue;
            }
            let v = eval(&l.expr, &env).map_err(|e| l.failed(None, &e));
            values.push((l.name.clone(), v.as_ref().ok().map(|v| self.figure(v))));
            env.lets.push(v);
        }
        let first_score_let = self.setup.constants.len();
        let mut notes = vec![];
        for (text, cond, clause) in &sc.notes {
            if truthy(&eval(cond, &env).map_err(|e| self.rule_error(clause, e))?).map_err(|e| self.rule_error(clause, e))? {
                notes.push(text.clone());
            }
        }
        let mut ledger = Vec::with_capacity(sc.terms.len() + sc.pays.len() * self.n());
        let mut total = Q::ZERO;
        for t in &sc.terms {
            let v = self.number(&t.expr, &env, &t.clause)?;
            total = total.checked_add(v).ok_or_else(|| self.rule_error(&t.clause, too_large(&format!("the terms' total {total} + {v}"))))?;
            ledger.push(LedgerEntry { rule: t.clause.rule.clone(), label: t.label.clone(), from: None, to: None, amount: v, source: t.clause.source.clone(), event: None });
        }
        env.total = Some(total);
        for pay in &sc.pays {
            let entry = |from: Arc<str>, to: Arc<str>, amount: Q| LedgerEntry {
                rule: pay.clause.rule.clone(),
                label: pay.label.clone(),
                from: Some(from),
                to: Some(to),
                amount,
                source: pay.clause.source.clone(),
                event: None,
            };
            match (&pay.from, &pay.to) {
                (Account::Players(_), Account::Players(_)) => ledger.extend(self.pays_between(pay, &mut env, None)?),
                // Between players and a pot, one player after another in seat order: each payment
                // changes what the pot holds for the next (`pot.NAME`).
                (Account::Players(players), Account::Pot(i)) | (Account::Pot(i), Account::Players(players)) => {
                    let into = matches!(pay.to, Account::Pot(_));
                    let who = self.payment_side(players, &env, pay)?;
                    for a in (0..scored).filter(|a| who >> a & 1 == 1) {
                        (env.payer, env.payee) = if into { (Some(a), None) } else { (None, Some(a)) };
                        let v = self.number(&pay.amount, &env, &pay.clause)?;
                        if v == Q::ZERO {
                            continue;
                        }
                        // What the player pays into the pot.
                        let paid_in = if into { v } else { -v };
                        let holds = env.pots[*i];
                        env.pots[*i] =
                            holds.checked_add(paid_in).ok_or_else(|| self.rule_error(&pay.clause, too_large(&format!("{} holding {holds} + {paid_in}", self.pot_account(*i)))))?;
                        let (f, t) = if paid_in > Q::ZERO { (self.name(a), self.pot_account(*i)) } else { (self.pot_account(*i), self.name(a)) };
                        ledger.push(entry(f, t, v.abs()));
                    }
                }
                (Account::Pot(_), Account::Pot(_)) => return Err(self.rule_error(&pay.clause, "a payment goes between players and a pot, not between two pots".into())),
            }
        }
        env.payer = None;
        env.payee = None;
        // What each player got less what he paid, in one pass over the payments; their names are this
        // game's own, so a name is first compared by address.
        let seat = |name: &Option<Arc<str>>| name.as_ref().and_then(|n| self.names.iter().position(|m| Arc::ptr_eq(m, n) || m == n));
        let balance = self.balances(self.ledger.iter().chain(&ledger), seat)?;
        let mut players = Vec::with_capacity(self.names.len());
        for p in 0..scored {
            let name = self.name(p);
            env.player = Some(p);
            for (k, l) in sc.lets.iter().enumerate().filter(|(_, l)| l.per_player) {
                let v = eval(&l.expr, &env).map_err(|e| l.failed(Some(&name), &e));
                // Listed only where every player's value is known.
                match (&v, &mut values[k].1) {
                    (Ok(v), Some(Figure::List(per_player))) => per_player.push(self.figure(v)),
                    (Err(_), figure) => *figure = None,
                    _ => {}
                }
                env.lets[first_score_let + k] = v;
            }
            let score = match &sc.standing {
                Some((e, c)) if sc.pays.is_empty() => self.number(e, &env, c)?,
                _ => balance[p as usize],
            };
            let winner = match &sc.winner {
                Some((e, c)) => truthy(&self.eval_rule(e, &env, c)?).map_err(|m| self.rule_error(c, m))?,
                None => false,
            };
            players.push(PlayerResult { player: name.clone(), card_points: self.player_points(p), tricks: self.tricks.iter().filter(|t| t.winner == p).count(), score, winner });
        }
        let out = Outcome {
            taker: self.taker.map(|t| self.name(t)),
            partner: self.partner.map(|t| self.name(t)),
            contract: self.contract.and_then(|c| rules.bidding.as_ref().map(|b| b.contracts[c].name.clone())),
            values: values.into_iter().filter_map(|(name, figure)| Some((name, figure?))).collect(),
            hand_score: (!sc.terms.is_empty()).then_some(total),
            players,
            pots: rules.pots.iter().enumerate().map(|(i, p)| PotResult { pot: p.name.clone(), carried: self.carried[i], closing: env.pots[i] }).collect(),
            ends_match: match self.ended_match {
                Some(d) => std::iter::once(d).chain((0..self.n() as u8).filter(|&q| q != d && self.side_of(d) >> q & 1 == 1)).map(|q| self.name(q)).collect(),
                None => vec![],
            },
            last_dealer: self.last_dealer.map(|p| self.name(p)),
        };
        Ok((out, ledger, notes))
    }
}
