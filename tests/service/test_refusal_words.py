"""A badly typed REST body is refused in the service's own words, in English and Russian:
never json_format's or Python's ("Bool value True is not acceptable for integer field at
DealRequest.players.", "... fields at "ApplyMoveRequest.move"..")."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.service.helpers import rest_failure

INT32 = ("an integer from -2147483648 to 2147483647", "целым числом от -2147483648 до 2147483647")
UINT64 = ("an integer from 0 to 18446744073709551615", "целым числом от 0 до 18446744073709551615")
STRING = ("a string", "строкой")
OBJECT = ("an object", "объектом")
BOOL = ("true or false", "значением true или false")
STRINGS = ("a list of strings", "списком строк")
OBJECTS = ("a list of objects", "списком объектов")
MAP = ("an object of strings", "объектом со строковыми значениями")
TEXT = ("text without an unpaired surrogate", "текстом без непарных суррогатов")
S = '{"snapshot": "AAAA", '

# (route, body, the field refused, the value the words name, what it must be)
CASES: list[tuple[str, str, str, str, tuple[str, str]]] = [
    ("/v1/deal", '{"variant": "classic", "players": true}', "players", "players", INT32),
    ("/v1/deal", '{"variant": "classic", "players": false}', "players", "players", INT32),
    ("/v1/deal", '{"variant": "classic", "players": 4.5}', "players", "players", INT32),
    ("/v1/deal", '{"variant": "classic", "players": NaN}', "players", "players", INT32),
    ("/v1/deal", '{"variant": "classic", "players": -Infinity}', "players", "players", INT32),
    ("/v1/deal", '{"variant": "classic", "players": 1e400}', "players", "players", INT32),
    ("/v1/deal", '{"variant": "classic", "players": 99999999999}', "players", "players", INT32),
    ("/v1/deal", '{"variant": "classic", "seed": true}', "seed", "seed", UINT64),
    ("/v1/deal", '{"variant": "classic", "seed": 1.5}', "seed", "seed", UINT64),
    ("/v1/deal", '{"variant": "classic", "seed": "1e40"}', "seed", "seed", UINT64),
    ("/v1/deal", '{"variant": "classic", "viewSeat": true}', "viewSeat", "viewSeat", INT32),
    ("/v1/deal", '{"variant": 5}', "variant", "variant", STRING),
    ("/v1/deal", '{"variant": {"a": 1}}', "variant", "variant", STRING),
    # a key twice inside a value that is no message: refused on that value, not on "body"
    ("/v1/deal", '{"variant": {"a": 1, "a": 2}}', "variant", "variant", STRING),
    # a list where one message belongs, its object giving a key twice: the list is wrong
    ("/v1/apply-move", S + '"move": [{"text": "a", "text": "b"}]}', "move", "move", OBJECT),
    ("/v1/deal", '{"variant": "a\\ud800"}', "variant", "variant", TEXT),
    ("/v1/deal", '{"deck": "AS"}', "deck", "deck", STRINGS),
    ("/v1/deal", '{"deck": {"a": "b"}}', "deck", "deck", STRINGS),
    ("/v1/deal", '{"deck": [null]}', "deck[0]", "deck[0]", STRING),
    ("/v1/deal", '{"deck": ["AS", "a\\udc00"]}', "deck[1]", "deck[1]", TEXT),
    ("/v1/deal", '{"options": "x"}', "options", "options", MAP),
    ("/v1/deal", '{"options": ["a"]}', "options", "options", MAP),
    ("/v1/deal", '{"options": {"a": "\\ud800"}}', "options", "options.a", TEXT),
    ("/v1/legal-moves", S + '"pageSize": true}', "pageSize", "pageSize", INT32),
    ("/v1/legal-moves", S + '"pageToken": ["x"]}', "pageToken", "pageToken", STRING),
    ("/v1/apply-move", S + '"expectedSeq": false}', "expectedSeq", "expectedSeq", UINT64),
    ("/v1/apply-move", S + '"seat": true}', "seat", "seat", INT32),
    ("/v1/apply-move", S + '"move": {"answer": {"yes": 1}}}', "move.answer.yes",
     "move.answer.yes", BOOL),
    ("/v1/apply-move", S + '"move": {"answer": {"yes": "true"}}}', "move.answer.yes",
     "move.answer.yes", BOOL),
    ("/v1/apply-move", S + '"move": {"layOff": {"seat": true}}}', "move.layOff.seat",
     "move.layOff.seat", INT32),
    ("/v1/apply-move", S + '"move": {"layOff": {"meld": 1.5}}}', "move.layOff.meld",
     "move.layOff.meld", INT32),
    ("/v1/apply-move", S + '"move": {"takePile": {"cards": "9S"}}}', "move.takePile",
     "move.takePile.cards", STRINGS),
    ("/v1/apply-move", S + '"move": {"takePile": {"extras": "x"}}}', "move.takePile",
     "move.takePile.extras", OBJECTS),
    ("/v1/apply-move", S + '"move": {"takePile": {"extras": [{"cards": 5}]}}}',
     "move.takePile.extras[0]", "move.takePile.extras[0].cards", STRINGS),
    ("/v1/apply-move", S + '"move": {"meld": {"groups": {}}}}', "move.meld",
     "move.meld.groups", OBJECTS),
    ("/v1/next-deal", S + '"deck": "x"}', "deck", "deck", STRINGS),
    ("/v1/suggest-move", S + '"seed": 3.7}', "seed", "seed", UINT64),
]
# two arms of a oneof, an unknown field, a key no text can be: what is wrong, in words
SAID: list[tuple[str, str, str, tuple[str, str]]] = [
    ("/v1/apply-move", S + '"move": {"draw": {}, "ask": {}}}', "move",
     ("move sets both draw and ask: set only one of them",
      "в «move» заданы сразу «draw» и «ask»: задайте только одно из них")),
    ("/v1/apply-move", S + '"move": {"goOut": {"card": "AS"}, "discard": {"card": "AS"}}}',
     "move", ("move sets both goOut and discard", "заданы сразу «goOut» и «discard»")),
    ("/v1/deal", '{"variant": "classic", "colour": 1}', "colour",
     ("colour is not a field of this request (its fields: variant, players,",
      "в этом запросе нет поля «colour» (его поля: variant, players,")),
    ("/v1/apply-move", S + '"move": {"colour": 1}}', "move.colour",
     ("move.colour is not a field of move (its fields: text, draw,",
      "у «move» нет поля «colour» (его поля: text, draw,")),
    ("/v1/apply-move", S + '"move": {"draw": {"x": 1}}}', "move.draw.x",
     ("move.draw.x is not a field: move.draw has none", "у «move.draw» нет полей")),
    ("/v1/deal", '{"a\\ud800": 1}', "body",
     ("the body's keys must be text without an unpaired surrogate",
      "ключи тела запроса должны быть текстом без непарных суррогатов")),
    ("/v1/apply-move", S + '"move": {"a\\ud800": 1}}', "move",
     ("the keys of move must be text", "ключи поля «move» должны быть текстом")),
    # refused on the map, not on "options.key" (json_format's, no path of the request)
    ("/v1/deal", '{"options": {"a\\ud800": "x"}}', "options",
     ("the keys of options must be text", "ключи поля «options» должны быть текстом")),
    ("/v1/deal", '{"variant": "classic", "players": 4, "players": 2}', "players",
     ("players is given twice: send each field once", "поле «players» задано дважды")),
    ("/v1/deal", '{"players": ' + "9" * 5000 + "}", "body",
     ("the body holds a number of more than 4300 digits",
      "в теле запроса есть число длиннее 4300 цифр")),
    ("/v1/deal", '{"variant": "classic",}', "body",
     ("the body is not JSON: Expecting property name", "тело запроса — не JSON (строка 1, ")),
    ("/v1/deal", "[1]", "body",
     ("the body must be a JSON object", "тело запроса должно быть объектом JSON")),
]
# json_format's and Python's words, and a message type's names
FOREIGN = re.compile(r"Failed to|acceptable|Request\b|Request\.|Message type|canasta\.v1|"
                     r"Couldn't|Bool value|repeated field|which is|Expected true|in a dict|"
                     r"Unpaired|SystemError|should not have|a value of its type|wrong type|"
                     r"\.\.$|int\(\)|object is not|Exceeds the limit")


def _refusal(http: httpx.Client, path: str, body: str, lang: str) -> tuple[list[str], str]:
    resp = http.post(path, content=body.encode("utf-8", "surrogatepass"),
                     headers={"content-type": "application/json", "accept-language": lang})
    assert resp.status_code == 400, resp.text
    failure = rest_failure(resp)
    assert failure.reason == "REQUEST_INVALID", failure
    assert not FOREIGN.search(failure.message), failure
    if lang == "ru":
        assert failure.message.startswith("Некорректный запрос: "), failure
        assert failure.message.endswith(".") and not failure.message.endswith(".."), failure
    else:
        assert failure.message.startswith("invalid request: "), failure
    return failure.fields, failure.message


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(("path", "body", "field", "subject", "kind"), CASES,
                         ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_a_value_of_the_wrong_type_is_refused_in_the_services_words(
        path: str, body: str, field: str, subject: str, kind: tuple[str, str], lang: str,
        http: httpx.Client) -> None:
    """Booleans, fractions, NaN and huge numbers for integers, scalars for lists, objects
    and maps, non-booleans for a boolean, lone surrogates: REQUEST_INVALID on the field,
    saying what the value must be in the caller's language (Russian said only which field
    was wrong; English passed on json_format's words for most of these)."""
    fields, message = _refusal(http, path, body, lang)
    assert fields == [field]
    if lang == "en":
        assert f"{subject} must be {kind[0]}" in message, message
    else:
        assert f"поле «{subject}» должно быть {kind[1]}" in message, message


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(("path", "body", "field", "words"), SAID,
                         ids=[f"{c[0]}:{c[1][:60]}" for c in SAID])
def test_a_malformed_body_is_refused_saying_what_is_wrong(
        path: str, body: str, field: str, words: tuple[str, str], lang: str,
        http: httpx.Client) -> None:
    """Two arms of a oneof (was "Message type "canasta.v1.Move" should not have multiple
    "kind" oneof fields at "ApplyMoveRequest.move".."), an unknown field (named its message
    type), a key with a lone surrogate (a SystemError's words), a number too long to read."""
    fields, message = _refusal(http, path, body, lang)
    assert fields == [field]
    assert words[0 if lang == "en" else 1] in message, message
