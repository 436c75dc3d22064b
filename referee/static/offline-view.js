// What the scorer's page shows while entries wait on this phone (static/offline.js keeps them): the cards as this
// phone has them, whose card comes next and the last trick's winner, the pile being gathered, and the list of
// waiting entries with a refused one's sentence and its two choices; and what the page's forms hold. Words come
// from the page (#offline-words).
window.RefereeOfflineView = function (page) {
  "use strict";
  var SHOWN = 3; // waiting entries listed in full
  var record = null;
  var words = {};
  function current() { record = page.record(); words = page.words(); }

  // A sentence filled in: the page's %(name)s, or an engine refusal's {name} (referee/games/tricks.py).
  function say(template, values) {
    return String(template || "").replace(/%\((\w+)\)s|\{(\w+)\}/g, function (whole, name, field) {
      return values[name || field] !== undefined ? values[name || field] : whole;
    });
  }
  function plural(prefix, n, values) {
    return say(n === 1 ? words[prefix + "_1"] : n === 0 && words[prefix + "_0"] ? words[prefix + "_0"]
      : words[prefix + "_n"], values);
  }
  function label(code) { return (record.base.labels && record.base.labels[code]) || code; }
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function wonText(trick) {
    return plural("won", trick.points, { n: trick.number, winner: record.base.players[trick.winner], num: trick.points });
  }
  function render(note) {
    var scorer = document.getElementById("scorer");
    if (!scorer || !record || !page.data()) { return; }
    var now = page.local();
    renderCards(now.base);
    if (record.mode === "trick") { renderTrick(scorer, now); }
    if (record.mode === "capture") { renderPile(scorer); }
    if (record.mode === "numbers") { renderSheet(scorer, now.closed); }
    var banner = document.getElementById("offline");
    if (banner) { banner.hidden = true; } // "nothing was saved" is not so here: the entries wait on this phone
    if (!note && now.closed && record.entries.length) { // the deal is entered: said once, not after a vain tap
      note = record.mode === "trick" ? words.deal_over : words.deal_waits;
    }
    renderQueue(scorer, now, note);
  }
  // A deal's numbers wait: the sheet has nothing more to save (its worked-out field no longer shows the rest).
  function renderSheet(scorer, closed) {
    var sheet = scorer.querySelector("form#sheet");
    if (!sheet || !closed) { return; }
    sheet.querySelectorAll("input[data-keypad]").forEach(function (input) { input.placeholder = ""; });
    var save = sheet.querySelector(".sheet-save");
    if (save) { save.disabled = true; }
  }
  // A card played in a trick, or gathered in a pile that waits, is marked played; card by card, every mark is the
  // phone's own for the player whose card comes next (static/offline-rules.js status, as views.picker).
  function renderCards(base) {
    var fresh = base.deal !== page.data().deal; // a deal started on this phone: the server's marks are the last deal's
    var rules = window.RefereeOfflineRules;
    var follows = record.mode === "trick" && base.known !== undefined && !rules.dealOver(base);
    var played = {};
    (base.played || []).forEach(function (code) { played[code] = true; });
    record.entries.forEach(function (entry) {
      (entry.form && entry.cards || []).forEach(function (code) { played[code] = true; });
    });
    document.querySelectorAll("#picker button.card").forEach(function (button) {
      var code = button.value;
      if (!button.dataset.server) {
        button.dataset.server = (button.className.match(/\b(free|played|out|not-held|held|stock|pending)\b/) ||
          ["free"])[0];
      }
      var server = button.dataset.server;
      var index = record.pending.indexOf(code);
      var seen = follows ? rules.status(base, record.pending, code) : null;
      var status = seen ? seen.status : index >= 0 ? "pending" : played[code] ? "played"
        : fresh || server === "pending" || (server === "played" && record.mode === "trick") ? "free" : server;
      button.className = "card " + status;
      var badge = button.querySelector(".badge");
      var mark = index >= 0 && record.mode === "trick" ? String(index + 1)
        : status === "held" && seen ? base.players[seen.holder].slice(0, 2) : status === "stock" && seen ? "⤓" : null;
      if (mark !== null) {
        if (!badge) { badge = button.appendChild(element("span", "badge")); badge.setAttribute("aria-hidden", "true"); }
        badge.textContent = mark;
      } else if (badge && (seen || status === "free" || status === "played")) {
        badge.remove();
      }
    });
  }
  function renderTrick(scorer, now) {
    var base = now.base;
    var next = statusLine(scorer);
    if (now.over && base.next_deal) { // R-COMMON-2: the next deal starts with its turned card
      setTitle(scorer, say(words.deal_n, { n: base.next_deal.number }),
        say(words.dealer_is, { name: base.players[base.next_deal.dealer] }));
      next.textContent = words.tap_turned;
    } else if (next) { // as _status_trick.html: the trick so far (who played each said to screen readers), whose card
      next.textContent = "";
      var sofar = next.appendChild(element("span", "trick-so-far",
        say(record.pending.length ? words.trick_cards : words.trick, { n: base.tricks + 1 }) + " "));
      record.pending.forEach(function (code, i) {
        var span = sofar.appendChild(element("span", "played-now"));
        span.appendChild(element("span", "sr-only", base.players[(base.leader + i) % base.players.length]));
        span.appendChild(element("span", "card-inline", " " + label(code)));
        sofar.appendChild(document.createTextNode(" "));
        span.dataset.card = code;
      });
      if (base.tricks < base.tricks_per_deal) {
        next.appendChild(element("strong", "next-card", say(words.next,
          { name: base.players[(base.leader + record.pending.length) % base.players.length] })));
      }
    }
    if (base.deal !== page.data().deal) { renderNewDeal(scorer, base); }
    var tricks = now.tricks.filter(function (t) { return t && t.number !== undefined; });
    var last = scorer.querySelector(".status-last");
    var room = scorer.querySelector(".status-message");
    if (!last && room && tricks.length && !room.querySelector(".refusal")) { // the bar's message room
      last = room.appendChild(element("p", "status-last"));
    }
    if (last && tricks.length) { last.textContent = wonText(tricks[tricks.length - 1]); }
    scorer.querySelectorAll(".status-deal strong[data-side]").forEach(function (strong) {  // the headline's deal chip
      var side = Number(strong.dataset.side);
      if (base.points[side] !== undefined) { strong.textContent = String(base.points[side]); }
    });
  }
  function statusLine(scorer) {
    var line = scorer.querySelector(".status-next");
    var part = scorer.querySelector(".status-part[data-part=trick]"); // _status_bar.html: the trick line's place
    if (!line && part) { line = part.appendChild(element("p", "status-next")); }
    return line;
  }
  // A deal started on this phone: its number and trump in the title, its dealer under them (_status_bar.html); the
  // deal picker's choices are done.
  function renderNewDeal(scorer, base) {
    setTitle(scorer, say(words.deal_n, { n: base.deal }) + " · " + words.trump + " " + label(base.turned),
      say(words.dealer_is, { name: base.players[base.dealer] }));
    var help = document.querySelector("#picker > p.help");
    if (help) { help.hidden = true; }
  }
  function setTitle(scorer, main, dealer) {
    var title = scorer.querySelector(".status-title");
    if (!title) { return; }
    title.textContent = "";
    title.appendChild(element("span", "title-main", main));
    var line = title.appendChild(element("span", "title-dealer", dealer));
    line.title = dealer;
  }
  // The pile being gathered: its cards in every form of the page, whose pile it is, and the save button's count.
  function renderPile(scorer) {
    scorer.querySelectorAll("input[name=pending]").forEach(function (input) { input.value = record.pending.join("."); });
    scorer.querySelectorAll("input[name=side]").forEach(function (input) { input.value = String(record.side); });
    var save = pileForm(scorer);
    if (!save) { return; }
    save.querySelectorAll("p > .button").forEach(function (chip, s) { chip.classList.toggle("current", s === record.side); });
    var button = save.querySelector("button[type=submit]");
    if (button) {
      button.textContent = plural("save_pile", record.pending.length,
        { side: record.base.side_names[record.side], num: record.pending.length });
    }
  }
  function pileForm(scorer) {
    return Array.prototype.filter.call(scorer.querySelectorAll("form"), savesPile)[0] || null;
  }
  // The form that saves what the picker gathered (a pile, in capture mode): it posts to /t/<table>/save.
  function savesPile(form) { return /\/save$/.test(new URL(form.action).pathname); }
  function renderQueue(scorer, now, note) {
    var panel = document.getElementById("offline-queue");
    if (!panel) {
      panel = element("section", "offline-queue");
      panel.id = "offline-queue";
      panel.setAttribute("aria-live", "polite");
      var bar = scorer.querySelector(".status-bar");
      scorer.insertBefore(panel, bar ? bar.nextSibling : scorer.firstChild);
    }
    panel.textContent = "";
    panel.hidden = !(record.entries.length || record.pending.length || note || record.again || page.offline());
    if (record.entries.length) { panel.appendChild(element("h2", "offline-title", words.title)); }
    var state = element("p", "offline-state", page.offline() ? words.offline : page.syncing() ? words.sending : "");
    if (state.textContent) { panel.appendChild(state); }
    if (note) { panel.appendChild(element("p", "offline-note", note)); }
    if (record.again) { panel.appendChild(element("p", "offline-again", say(words.again, { cards: record.again }))); }
    // The last entries in view (the cards stay in reach): the earlier ones are counted, a refused one always shown.
    var earlier = Math.max(0, record.entries.length - SHOWN);
    if (earlier) { panel.appendChild(element("p", "offline-more", plural("earlier", earlier, { num: earlier }))); }
    var list = panel.appendChild(element("ol", "offline-list"));
    list.start = earlier + 1;
    record.entries.forEach(function (entry, i) {
      var item = list.appendChild(element("li", entry.refused ? "refused" : "waiting"));
      if (i < earlier && !entry.refused) { item.classList.add("earlier"); }
      item.dataset.clientEventId = entry.id;
      if (entry.form) {
        item.appendChild(element("span", "offline-entry", entry.text + " "));
      } else if (entry.deal) {
        item.appendChild(element("span", "offline-entry", say(words.deal_dealt, { n: now.tricks[i].deal,
          dealer: record.base.players[entry.deal.dealer] }) + " " + words.trump + " " + label(entry.deal.trump) + " "));
      } else {
        item.appendChild(element("span", "offline-trick", wonText(now.tricks[i]) + " "));
        item.appendChild(element("span", "offline-cards", entry.cards.map(label).join(" ") + " "));
      }
      if (entry.refused) {
        item.appendChild(element("p", "offline-refusal", words.refused + " " + entry.refused));
        var fix = item.appendChild(element("button", "button offline-fix", words.fix));
        fix.type = "button";
        var drop = item.appendChild(element("button", "button offline-drop", words.drop));
        drop.type = "button";
      } else {
        item.appendChild(element("span", "offline-mark", words.waiting));
      }
    });
  }

  // ---- what the page's forms hold: a form's fields as it would post them, the deal's typed points ----------
  function setField(fields, name, value) {
    var found = fields.filter(function (pair) { return pair[0] === name; });
    if (found.length) { found[0][1] = value; } else { fields.push([name, value]); }
  }
  function formFields(form, submitter) {
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    if (submitter && submitter.name) { setField(fields, submitter.name, submitter.value); }
    return fields;
  }
  function typed(form) {
    var said = [];
    form.querySelectorAll("label").forEach(function (field) {
      var input = field.querySelector("input[data-keypad]");
      var name = field.querySelector(".sheet-name");
      if (input && input.value !== "") { said.push((name ? name.textContent.trim() + " " : "") + input.value); }
    });
    return said.join(" · ") || "—";
  }

  return {
    render: function (note) { current(); render(note); },
    setField: setField,
    savesPile: savesPile,
    formFields: formFields,
    typed: typed,
    say: say,
    plural: function (prefix, n, values) { current(); return plural(prefix, n, values); },
    label: function (code) { current(); return label(code); },
    element: element
  };
};
