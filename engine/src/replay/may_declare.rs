//! Who may make a declaration, and when: who may (`by`), its `allowed`, its turn (`in-turn`), the
//! compulsory ones and a contract's `require`s, closed by the first card; and the declarations open
//! to each player now.

use crate::cards::CardSet;
use crate::expr::{eval, truthy};
use crate::ir::*;
use crate::label::with_article;
use crate::verdict::OpenDeclaration;

use super::{Game, Stage, Stop};

impl<'s, 'r> Game<'s, 'r> {
    /// Whether the talon is shown in packets and the taker has still to take his (`when before-take`).
    pub(super) fn before_take(&self) -> bool {
        self.stage == Stage::Discard && self.talon_taker.is_some()
    }

    /// Why `p` may not make declaration `k` (`d`) whatever his cards: who may make it (`by`), and each
    /// player once (each side once with `by any-side`); `None` when he may.
    /// Whether every `allowed` lets `p` make this declaration now (yes where it has none): one check
    /// for the declare event, the open declarations and the simulator.
    pub(super) fn allowed_to_declare(&self, p: u8, d: &DeclarationKind) -> Result<bool, String> {
        self.not_allowed(p, d).map(|a| a.is_none()).map_err(|(_, e)| e)
    }

    /// The first `allowed` of `d`, in the order written, whose condition is false for `p` now (with
    /// the one whose condition cannot be worked out, as an error).
    pub(super) fn not_allowed<'d>(&self, p: u8, d: &'d DeclarationKind) -> Result<Option<&'d Allowed>, (&'d Allowed, String)> {
        if d.allowed.is_empty() {
            return Ok(None);
        }
        let env = self.env(Some(p)).with_hand(self.declaring_hand(p, d));
        for a in &d.allowed {
            if !eval(&a.condition, &env).and_then(|v| truthy(&v)).map_err(|e| (a, e))? {
                return Ok(Some(a));
            }
        }
        Ok(None)
    }

    /// Why `p` may not make declaration `d` now for its turn (`in-turn`): a player later in turn
    /// from first hand has made a declaration `in-turn` of the same timing; `None` when he may (or
    /// when `d` is not `in-turn`). A player who had nothing to declare let his turn pass.
    pub(crate) fn out_of_turn(&self, p: u8, d: &DeclarationKind) -> Option<String> {
        let (_, dealer_first) = self.in_turn(d)?;
        let rules = self.rules();
        let (start, from) = if dealer_first { (self.dealer, "the dealer") } else { (self.first_hand(), "first hand") };
        let place = |q: u8| (q as usize + self.n() - start as usize) % self.n();
        let later = self.declarations.iter().find(|x| {
            let e = &rules.declarations[x.kind];
            self.in_turn(e).is_some() && e.when == d.when && place(x.player) > place(p)
        })?;
        Some(format!(
            "{} declares {} out of turn: {}, later in turn from {from}, has already declared {}",
            self.name(p),
            with_article(&d.label),
            self.name(later.player),
            with_article(&rules.declarations[later.kind].label)
        ))
    }

    /// Whether `d` is made in turn in this game, with the rule that orders it and whether the turn
    /// starts at the dealer: `in-turn from dealer` where its condition holds for the game's options
    /// (the compiler has tried every choice of them), else plain `in-turn` (from first hand).
    pub(crate) fn in_turn<'a>(&self, d: &'a DeclarationKind) -> Option<(&'a Clause, bool)> {
        if let Some((e, clause)) = &d.in_turn_from_dealer {
            if eval(e, &self.env(None)).and_then(|v| truthy(&v)).unwrap_or(false) {
                return Some((clause, true));
            }
        }
        d.in_turn.as_ref().map(|c| (c, false))
    }

    /// Whether `d` is compulsory in this game: `compulsory`, or `compulsory = condition` true for
    /// the game's options (the compiler has tried every choice of them).
    pub(crate) fn is_compulsory(&self, d: &DeclarationKind) -> bool {
        d.compulsory.is_some() && d.compulsory_if.as_ref().is_none_or(|e| eval(e, &self.env(None)).and_then(|v| truthy(&v)).unwrap_or(false))
    }

    pub(crate) fn not_his_to_declare(&self, p: u8, k: usize, d: &DeclarationKind) -> Option<String> {
        let attack = self.taker.is_some_and(|_| self.side_of(p) == self.attack());
        let who = match d.by {
            DeclaredBy::Taker if self.taker != Some(p) => Some("only the taker"),
            DeclaredBy::Attack if !attack => Some("only the taker and his partner"),
            DeclaredBy::Defence if self.taker.is_none() || attack => Some("only the defence"),
            _ => None,
        };
        if let Some(who) = who {
            return Some(format!("{who} may declare {}", with_article(&d.label)));
        }
        if d.repeats.is_none() && self.declarations.iter().any(|x| x.player == p && x.kind == k) {
            return Some(format!("{} has already declared {}", self.name(p), with_article(&d.label)));
        }
        if d.by == DeclaredBy::AnySide {
            if let Some(x) = self.declarations.iter().find(|x| x.kind == k && self.side_of(p) >> x.player & 1 == 1) {
                return Some(format!("{}'s side has already declared {}: each side declares it once", self.name(x.player), with_article(&d.label)));
            }
        }
        None
    }

    /// A compulsory declaration (`compulsory`) that `p`'s card about to be played closes, while a
    /// player who holds a valid show of it has not made it: the first card closes those made before
    /// play (for every player), a player's own first card those of `when first-play` (for him).
    /// The violation names the holder and the show he owed (the one `best_show` finds).
    pub(super) fn compulsory_missing(&self, p: u8) -> Option<Stop> {
        let rules = self.rules();
        let started = !self.tricks.is_empty() || self.trick_begun();
        let has_played = self.tricks.iter().any(|t| t.cards.iter().any(|&(q, _)| q == p)) || self.in_play().any(|&(q, _)| q == p);
        for (k, d) in rules.declarations.iter().enumerate() {
            let Some(clause) = &d.compulsory else { continue };
            if !self.is_compulsory(d) {
                continue;
            }
            let (closing, by) = match d.when {
                When::BeforePlay | When::AfterDiscard if !started => ((0..self.n() as u8).collect::<Vec<u8>>(), "before the first card"),
                When::FirstPlay if !has_played => (vec![p], "before his first card"),
                _ => continue,
            };
            for q in closing {
                if self.not_his_to_declare(q, k, d).is_some() {
                    continue;
                }
                let hand = self.declaring_hand(q, d);
                if !self.allowed_to_declare(q, d).unwrap_or(false) {
                    continue;
                }
                let shown = if d.shows.is_empty() { self.valid_show(q, hand, d, CardSet::EMPTY).map(|_| CardSet::EMPTY) } else { self.best_show(q, hand, d) };
                if let Some(shown) = shown {
                    let what = if shown.is_empty() { String::new() } else { format!(" ({})", rules.cards_named(shown)) };
                    return Some(self.violation(clause, q, format!("{} holds {}{what} and must declare it {by}", self.name(q), with_article(&d.label))));
                }
            }
        }
        None
    }

    /// The first requirement of the contract played (`require` in its block) that the game does not
    /// meet when the first card is about to be played: the announcements made before play are closed
    /// then. Read for the taker (`player`, his hand as it is then); the violation is his.
    pub(super) fn contract_requirement_missing(&self) -> Result<Option<Stop>, Stop> {
        let (Some(t), Some(c)) = (self.taker, self.contract) else { return Ok(None) };
        if !self.tricks.is_empty() || self.trick_begun() {
            return Ok(None);
        }
        let Some(k) = self.rules().bidding.as_ref().map(|b| &b.contracts[c]) else { return Ok(None) };
        let env = self.env(Some(t)).with_hand(self.hands[t as usize]);
        for (label, e, clause) in &k.requires {
            if !eval(e, &env).and_then(|v| truthy(&v)).map_err(|e| self.rule_error(clause, e))? {
                let message = format!("{} plays {}, which requires {label}: no card may be played without it", self.name(t), with_article(&k.label));
                return Ok(Some(self.violation(clause, t, message)));
            }
        }
        Ok(None)
    }

    /// Whether the contract played has requirements (`require` in its block).
    pub fn contract_requires_anything(&self) -> bool {
        self.contract.zip(self.rules().bidding.as_ref()).is_some_and(|(c, b)| !b.contracts[c].requires.is_empty())
    }

    /// Whether the contract played asks nothing more of the game (`require` in its block) as it stands
    /// now: what the simulator checks before the first card.
    pub fn contract_requirements_met(&self) -> bool {
        matches!(self.contract_requirement_missing(), Ok(None))
    }

    /// The declarations open now, for every player, with the cards each may show: those `declare`
    /// would accept at this moment (its timing, the taker's alone, not made yet) and for which the
    /// player's hand has a valid show, found as the simulator finds it (the strongest cards first).
    /// Kept out of `next`, which the simulator calls at every move: the verdict alone asks for it.
    pub fn open_declarations(&self) -> Vec<OpenDeclaration> {
        let rules = self.rules();
        if matches!(self.stage, Stage::Deal | Stage::Done) {
            return vec![];
        }
        let started = !self.tricks.is_empty() || self.trick_begun();
        // Nothing is declared while the taker owes his call or his buy, or a steal is owed (a
        // dealer's, or the discard after one): replay refuses any other move first.
        if self.call_missing(0).is_some() || self.buy_missing(0).is_some() || self.steal_due() {
            return vec![];
        }
        let mut out = vec![];
        for (k, d) in rules.declarations.iter().enumerate() {
            for p in 0..self.n() as u8 {
                // The timing `declare` checks.
                let has_played = self.tricks.iter().any(|t| t.cards.iter().any(|&(q, _)| q == p)) || self.in_play().any(|&(q, _)| q == p);
                // Only a declaration made right after the deal, or once the opening round is over, is
                // open during the auction.
                if matches!(self.stage, Stage::Bidding | Stage::Call) && !matches!(d.when, When::AfterDeal | When::AfterOpeningRound) {
                    continue;
                }
                let open = match d.when {
                    When::BeforePlay => !started,
                    When::AfterDiscard => !started && self.pending_discards.is_empty(),
                    When::FirstPlay => !has_played && self.at_first_card(p).unwrap_or(false),
                    When::AfterDeal => !self.after_deal_closed,
                    When::AfterPlay => false,
                    When::BeforeTake => self.before_take(),
                    When::AfterOpeningRound => self.after_opening_round().is_ok(),
                };
                if !open || self.not_his_to_declare(p, k, d).is_some() || self.out_of_turn(p, d).is_some() || self.past_repeat_limit(d) {
                    continue;
                }
                let hand = self.declaring_hand(p, d);
                if !self.allowed_to_declare(p, d).unwrap_or(false) {
                    continue;
                }
                // One that names who deals the match's last deal, where nobody is named, is refused.
                if d.ends_match_after.as_ref().is_some_and(|x| !matches!(self.first_meeting(&x.when, &x.clause), Ok(Some(_)))) {
                    continue;
                }
                let (cards, counts) = if d.shows.is_empty() {
                    if self.valid_show(p, hand, d, CardSet::EMPTY).is_none() {
                        continue;
                    }
                    (vec![], vec![])
                } else {
                    let (runs, trimmed) = self.shows_to_try(p, hand, d);
                    let mut counts: Vec<usize> = runs.chain(trimmed).filter(|&s| self.valid_show(p, hand, d, s).is_some()).map(|s| s.len()).collect();
                    counts.sort_unstable_by(|a, b| b.cmp(a));
                    counts.dedup();
                    if counts.is_empty() {
                        continue;
                    }
                    (self.showable(p, hand, d).iter().map(|c| c.to_string()).collect(), counts)
                };
                out.push(OpenDeclaration { player: self.name(p), declaration: d.name.clone(), cards, counts });
            }
        }
        out
    }
}
