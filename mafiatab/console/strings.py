"""The console's words for its script, in the reader's language (handed to the page
as a JSON data block: the script itself holds no text)."""

from __future__ import annotations

from django.utils.translation import gettext as _


def console_strings() -> dict[str, str]:
    return {
        "foul": _("Foul"),
        "fouls": _("Fouls"),
        "left": _("left"),
        "speaks": _("Speaks"),
        "next_speaker": _("Next speaker"),
        "loses_speech": _("loses this speech (3 fouls)"),
        "loses_speech_short": _("no speech"),
        "short_speech": _("speaks 30 seconds (3 fouls)"),
        "nominates": _("nominates"),
        "nominated": _("Nominated"),
        "nobody_nominated": _("Nobody is nominated yet."),
        "voting_cancelled": _("Today's voting is cancelled by a removal."),
        "vote": _("Vote"),
        "revote": _("Revote among the tied"),
        "now_lift": _("Now: the lift vote (no speech)."),
        "now_vote_over": _("The vote is over: no more speeches today."),
        "lift": _("Lift vote: all the tied leave?"),
        "lift_for": _("Players for all of them leaving"),
        "sum": _("Sum"),
        "alive": _("alive"),
        "sum_wrong": _("The votes must add up to the number of living players."),
        "send_vote": _("Record the vote"),
        "send_lift": _("Record the lift vote"),
        "to_night": _("Night falls"),
        "to_day": _("The day begins"),
        "shots": _("Shots"),
        "shoots": _("shoots"),
        "no_shot": _("no shot"),
        "send_shots": _("Record the shots"),
        "don_check": _("Don's check"),
        "sheriff_check": _("Sheriff's check"),
        "check_seat": _("Checks seat"),
        "is_sheriff": _("Sheriff: the judge nods."),
        "not_sheriff": _("Not the sheriff: the judge shakes his head."),
        "is_red": _("Red: the judge shakes his head and shows a thumb up, together."),
        "is_black": _("Black: the judge nods and shows a thumb down, together."),
        "best_move": _("Best move of the killed player"),
        "best_move_hint": _("Pick three seats, then record."),
        "send_best_move": _("Record the best move"),
        "pause": _("Time-out"),
        "undo": _("Undo the last event"),
        "undo_what": _("Undo: %(event)s?"),
        "no_voting_day1": _(
            "No nominations and no vote on day 1 at this table (online addendum): "
            "the speeches, then the night."
        ),
        "single_leaves": _(
            "One nominee: player %(seat)s leaves the table (last word) as the night falls."
        ),
        "single_day1": _("One nominee on day 1: no vote, nobody leaves (seat %(seat)s stays)."),
        "single_last_word": _("Last word of player %(seat)s, the day's single nominee."),
        "pending": _("waiting to be sent"),
        "online": _("saved"),
        "offline": _("no connection: events are kept and sent later"),
        "sending": _("sending…"),
        "not_saved": _("Not saved"),
        "game_over": _("The game is over."),
        "timer_start": _("Start"),
        "timer_pause": _("Pause"),
        "speech": _("Speech"),
        "defence": _("Defence"),
        "last_word": _("Last word"),
        "zero_night": _("Zero night"),
        "role_don": _("don"),
        "role_sheriff": _("sheriff"),
        "role_black": _("black"),
        "role_red": _("red"),
        # Offline first: what is not yet saved, what the server refused.
        "unsaved": _("not yet saved"),
        "held": _("stopped: the server refused an event"),
        "refused": _("Refused by the server"),
        "refused_after": _("%(n)s events were entered after it:"),
        "send_rest": _("Send them"),
        "held_moved": _("waiting: the game was changed from another device"),
        "moved": _(
            "While this console was without a connection, another device recorded in the "
            "game: %(events)s Your waiting events (%(n)s) are kept: send them after it?"
        ),
        "send_after": _("Send them after it"),
        "undo_moved": _(
            "Not sent: after the other device's event this undo would take back that one."
        ),
        "discard_rest": _("Discard them"),
        "refused_ok": _("Understood"),
        "discarded": _("discarded by the judge, not sent"),
        "undone_unsent": _("undone before it was sent"),
        "day_n": _("Day %(n)s"),
        "night_n": _("Night %(n)s"),
        "ev_foul": _("A foul to seat %(seat)s."),
        "ev_nominate": _("Seat %(by)s nominates seat %(seat)s."),
        "ev_vote": _("Vote %(counts)s"),
        "ev_lift": _("Lift vote: %(n)s for all the tied leaving."),
        "ev_night": _("The night falls."),
        "ev_day": _("The day begins."),
        "ev_shots": _("Shots %(shots)s"),
        "ev_don_check": _("Don's check: seat %(seat)s"),
        "ev_sheriff_check": _("Sheriff's check: seat %(seat)s"),
        "ev_best_move": _("Best move: %(seats)s."),
        "ev_remove": _("Removal: seat %(seat)s"),
        "ev_defeat": _("Procedural defeat: %(team)s"),
        "ev_pause": _("Time-out: seat %(seat)s"),
    }
