//! `on play|cut CLASS "label" [to pot.NAME] = marques`: payments made during play.

use super::*;

impl Compiler {
    pub(super) fn trigger(&mut self, s: &Stmt) -> Option<Trigger> {
        let on = match s.args.first().map(|w| w.text.as_str()) {
            Some("play") => TriggerEvent::Play,
            Some("cut") => TriggerEvent::Cut,
            _ => {
                self.err_at(s, "a payment is written `on play CLASS \"label\" = marques` or `on cut CLASS \"label\" = marques`");
                return None;
            }
        };
        let Some(class) = s.args.get(1) else {
            self.err_at(s, "a payment during play names the cards that trigger it: `on play CLASS \"label\" = marques`");
            return None;
        };
        let cards = match (self.classes.iter().find(|c| c.name == class.text).map(|c| c.cards), self.pack_card(&class.text)) {
            (Some(cards), _) => cards,
            (None, Some(card)) if !self.in_pack(&s.file, class.pos, &class.text, card) => return None,
            (None, Some(card)) => CardSet::single(card),
            // The class's own definition failed, and says why.
            _ if self.failed.contains(&class.text) => return None,
            _ => {
                self.err(&s.file, class.pos, format!("unknown card class `{}`", class.text));
                return None;
            }
        };
        // `on play CLASS ["label"] to pot.NAME = marques`: between the player and a pot.
        let (mut words, mut pot) = (s.args[2..].to_vec(), None);
        if words.len() >= 2 && words[words.len() - 2].text == "to" && !words[words.len() - 2].quoted {
            let w = words.pop().expect("two words");
            words.pop();
            match self.pot_word(&s.file, &w) {
                Some(Some(i)) => pot = Some(i),
                Some(None) => {
                    self.err(&s.file, w.pos, format!("a payment during play goes to each opponent, or to a pot: `to pot.NAME`, not `to {}`", w.text));
                    return None;
                }
                None => return None,
            }
        }
        if words.len() > 1 || words.first().is_some_and(|w| !w.quoted) {
            self.err_at(s, "a payment is written `on play CLASS \"label\" = marques`, or `on play CLASS \"label\" to pot.NAME = marques` for one into or out of a pot");
            return None;
        }
        let label = words.first().map(|w| w.text.clone()).unwrap_or_else(|| class.text.clone());
        let value = self.value(s, Ctx::Trigger)?;
        let rule = format!("on.{}.{}", s.args[0].text, label.to_lowercase().replace(' ', "-"));
        if let Some(i) = pot {
            self.pots_paid_in.insert(i);
        }
        Some(Trigger { on, cards, pot, label: label.into(), value, clause: self.clause(s, rule) })
    }
}
