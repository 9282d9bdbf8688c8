"""Human messages in English and Russian, keyed by reason code; language choice.

Reason codes never change and are what clients branch on; these texts are for
people. For engine errors the English text is the engine's own (it names the
offending cards); the table's English line is the fallback. Russian lines are
generic per reason. A missing line falls back to English, so a new engine
reason works before it is translated (``tests/service`` flags the gap).
"""

from __future__ import annotations

from collections.abc import Mapping

LANGUAGES = ("en", "ru")
DEFAULT_LANGUAGE = "en"

MESSAGES: dict[str, tuple[str, str]] = {
    # engine: malformed input
    "BAD_CARD": ("unknown card code", "Неизвестный код карты."),
    "BAD_MOVE_SYNTAX": ("the move cannot be read", "Ход не удаётся прочитать."),
    "BAD_NOTATION": ("the position text is malformed or inconsistent",
                     "Текст позиции записан неверно или противоречив."),
    "UNKNOWN_VARIANT": ("unknown game variant", "Неизвестный вариант игры."),
    "BAD_PLAYER_COUNT": ("this variant is not played by that many players",
                         "В этот вариант не играют таким числом игроков."),
    "UNKNOWN_OPTION": ("unknown rule option", "Неизвестный параметр правил."),
    "BAD_OPTION_VALUE": ("invalid value of a rule option",
                         "Недопустимое значение параметра правил."),
    "BAD_DECK": ("the deck must hold exactly the game's cards",
                 "Колода должна содержать ровно карты этой игры."),
    "BAD_SEAT": ("no such seat", "Такого места за столом нет."),
    "POSITION_OUT_OF_BOUNDS": ("play cannot produce this position",
                               "Такая позиция не может возникнуть в игре."),
    # engine: turn and phase
    "NOT_YOUR_TURN": ("it is another seat's turn", "Сейчас ход другого игрока."),
    "WRONG_PHASE": ("this move is not allowed at this point of the turn",
                    "Этот ход невозможен на данном этапе хода."),
    "HAND_OVER": ("the hand is over: deal the next one",
                  "Раздача окончена: сдайте следующую."),
    "GAME_OVER": ("the game is over", "Игра окончена."),
    "HAND_NOT_OVER": ("the hand is still being played", "Раздача ещё не окончена."),
    # engine: cards and melds
    "CARDS_NOT_IN_HAND": ("those cards are not in the hand", "Этих карт нет на руке."),
    "MELD_TOO_SMALL": ("a meld needs at least three cards",
                       "В комбинации должно быть не меньше трёх карт."),
    "MELD_NEEDS_NATURALS": ("a meld needs at least two natural cards",
                            "В комбинации должно быть не меньше двух натуральных карт."),
    "TOO_MANY_WILDS": ("too many wild cards", "Слишком много свободных карт."),
    "MIXED_RANKS": ("a meld holds cards of one rank only",
                    "Комбинация состоит из карт одного достоинства."),
    "RANK_NOT_MELDABLE": ("cards of this rank cannot be melded",
                          "Карты этого достоинства нельзя выкладывать в комбинации."),
    "MELD_EXISTS": ("your side already has a meld of this rank: add to it",
                    "У вашей стороны уже есть комбинация этого достоинства: добавляйте в неё."),
    "NO_SUCH_MELD": ("your side has no meld of this rank",
                     "У вашей стороны нет комбинации этого достоинства."),
    "NATURAL_CANASTA_CLOSED": ("no wild card may join a natural canasta",
                               "В натуральную канасту нельзя добавлять свободные карты."),
    "BLACK_THREES_ONLY_GOING_OUT": ("black threes are melded only when going out",
                                    "Чёрные тройки выкладываются только при выходе."),
    "OPENING_MINIMUM_NOT_MET": ("the initial meld does not reach the minimum count",
                                "Первая выкладка не набирает минимальной суммы очков."),
    "ONE_MELD_PER_ACTION": ("lay one meld per action",
                            "Выкладывайте по одной комбинации за действие."),
    # engine: the discard pile
    "PILE_EMPTY": ("the discard pile is empty", "Сброс пуст."),
    "PILE_BLOCKED": ("the discard pile is blocked", "Сброс заблокирован."),
    "PILE_FROZEN": ("the discard pile is frozen: a natural pair is needed",
                    "Сброс заморожен: нужна натуральная пара."),
    "PILE_TAKE_INVALID": ("these cards do not meld the top card of the pile",
                          "Эти карты не составляют комбинацию с верхней картой сброса."),
    "PILE_ONE_CARD": ("one card in hand cannot take a one-card pile",
                      "С одной картой на руке нельзя взять сброс из одной карты."),
    "EXTRA_MELD_NOT_NEEDED": ("show only the extra melds the minimum needs",
                              "Показывайте только те дополнительные комбинации, "
                              "которые нужны для минимума."),
    "MUST_TAKE_PILE": ("the top card fits your meld: the pile must be taken",
                       "Верхняя карта подходит к вашей комбинации: сброс нужно взять."),
    # engine: going out and the turn's end
    "MUST_KEEP_CARD": ("keep a card to discard", "Оставьте карту для сброса."),
    "GO_OUT_NEEDS_CANASTAS": ("going out needs more canastas",
                              "Для выхода нужно больше канаст."),
    "GO_OUT_REFUSED": ("your partner said no: you may not go out",
                       "Партнёр ответил «нет»: выходить нельзя."),
    "MUST_GO_OUT": ("your partner said yes and you can go out: you must",
                    "Партнёр ответил «да», и вы можете выйти: выход обязателен."),
    "ASK_NOT_ALLOWED": ("you may not ask for permission to go out now",
                        "Сейчас нельзя спрашивать разрешения на выход."),
    "NOTHING_TO_UNDO": ("nothing to undo this turn", "В этом ходу нечего отменять."),
    "STOCK_EMPTY": ("the stock is empty", "Колода для добора пуста."),
    "NOT_LISTED": ("the move is not legal here", "Этот ход сейчас недопустим."),
    # engine: May I? (contract rummy)
    "CONTRACT_NOT_MET": ("the melds do not meet this round's contract",
                         "Выкладка не выполняет контракт этого раунда."),
    "ALREADY_DOWN": ("you have already gone down this round",
                     "Вы уже выложили контракт в этом раунде."),
    "NOT_GONE_DOWN": ("you have not gone down yet", "Вы ещё не выложили контракт."),
    "LAYOFF_TOO_EARLY": ("you may not lay off cards yet", "Подкладывать карты пока нельзя."),
    "CARD_DOES_NOT_FIT": ("that card does not fit the meld",
                          "Эта карта не подходит к комбинации."),
    "BUY_NOT_ALLOWED": ("you may not buy the discard now",
                        "Сейчас нельзя купить карту из сброса."),
    "TAKEN_CARD_DISCARD": ("you may not discard the card you just took",
                           "Нельзя сбросить только что взятую карту."),
    # engine: Samba and Bolivia
    "NOT_A_SEQUENCE": ("the cards do not form a sequence",
                       "Карты не образуют секвенс."),
    "MELD_CLOSED": ("that meld is closed", "Эта комбинация закрыта."),
    "PILE_NEEDS_PAIR": ("taking the pile needs a natural pair matching its top card",
                        "Чтобы взять сброс, нужна натуральная пара к его верхней карте."),
    "MERGE_NOT_ALLOWED": ("these melds may not be merged", "Эти комбинации объединять нельзя."),
    # service
    "SNAPSHOT_INVALID": ("the snapshot is invalid", "Снимок игры недействителен."),
    "SNAPSHOT_VERSION_UNSUPPORTED": (
        "snapshot format version {version} is not supported (supported: {supported})",
        "Версия формата снимка {version} не поддерживается (поддерживаются: {supported})."),
    "SNAPSHOT_STALE": ("the snapshot's seq is {seq}, expected {expected}",
                       "Номер снимка {seq}, а ожидался {expected}."),
    "SNAPSHOT_WRONG_GAME": ("the snapshot is of game {game_id}, expected {expected}",
                            "Снимок относится к игре {game_id}, а ожидалась {expected}."),
    "SNAPSHOT_KEY_RETIRED": ("the snapshot was sealed with key {key_id}, which this server "
                             "does not hold (retired, or never known here)",
                             "Снимок запечатан ключом {key_id}, которого на этом сервере нет "
                             "(ключ выведен из оборота или никогда здесь не был известен)."),
    "CREDENTIAL_REQUIRED": ("this call needs a credential of the game (a seat's or the host's)",
                            "Для этого вызова нужен ключ доступа к игре (игрока или хозяина)."),
    "CREDENTIAL_INVALID": ("the credential is not valid for this game",
                           "Ключ доступа недействителен для этой игры."),
    "CREDENTIAL_KEY_RETIRED": ("the credential was signed with key {key_id}, which this "
                               "server no longer holds",
                               "Ключ доступа подписан ключом {key_id}, которого на сервере "
                               "больше нет."),
    "CREDENTIAL_VERSION_UNSUPPORTED": (
        "credential format {version} is not supported (supported: {supported})",
        "Формат ключа доступа {version} не поддерживается (поддерживается: {supported})."),
    "SEAT_NOT_ALLOWED": ("seat {seat}'s credential does not allow this: {detail}",
                         "Ключ доступа места {seat} этого не разрешает."),
    "REQUEST_INVALID": ("invalid request: {detail}", "Некорректный запрос (поле «{field}»)."),
    "REQUEST_TOO_LARGE": ("the request is larger than {limit} bytes",
                          "Запрос больше {limit} байт."),
    "TOO_MANY_CALLS": ("the server is running {limit} calls already: retry later",
                       "Сервер уже выполняет {limit} вызовов: повторите позже."),
    "UNSUPPORTED_MEDIA_TYPE": ("the request body must be application/json, not {type}",
                               "Тело запроса должно быть в формате application/json, "
                               "а не {type}."),
    "REQUEST_TIMEOUT": ("the request did not arrive within {seconds} s",
                        "Запрос не пришёл целиком за {seconds} с."),
    "EXPORT_DISABLED": ("exporting this position is disabled on this server",
                        "Экспорт этой позиции на этом сервере запрещён."),
    "NOT_FOUND": ("no such route", "Такого адреса нет."),
    "METHOD_NOT_ALLOWED": ("method not allowed for this route",
                           "Этот метод для данного адреса не поддерживается."),
    "DEADLINE_EXCEEDED": ("the deadline passed before the call could run",
                          "Срок вызова истёк до его выполнения."),
    "UNAVAILABLE": ("the server is shutting down", "Сервер останавливается."),
    "INTERNAL": ("internal error", "Внутренняя ошибка сервера."),
}


# The words of a REQUEST_INVALID the REST gateway says about a request's JSON, by rule:
# ``field`` is the value's JSON path, ``what`` a key of REQUEST_KINDS (what it must be).
# A refusal says these rather than the words of the JSON parser's Python errors.
REQUEST_DETAILS: dict[str, tuple[str, str]] = {
    "message": ("invalid request: {detail}", "Некорректный запрос: {detail}."),
    "must": ("{field} must be {what}", "поле «{field}» должно быть {what}"),
    "keys": ("the keys of {field} must be {what}", "ключи поля «{field}» должны быть {what}"),
    "body_keys": ("the body's keys must be {what}", "ключи тела запроса должны быть {what}"),
    "unknown": ("{field} is not a field of {owner} (its fields: {known})",
                "у «{owner}» нет поля «{name}» (его поля: {known})"),
    "no_fields": ("{field} is not a field: {owner} has none (send it as {{}})",
                  "у «{owner}» нет полей, в том числе «{name}» (передавайте его как {{}})"),
    "unknown_top": ("{field} is not a field of this request (its fields: {known})",
                    "в этом запросе нет поля «{field}» (его поля: {known})"),
    "oneof": ("{field} sets both {first} and {second}: set only one of them",
              "в «{field}» заданы сразу «{first}» и «{second}»: задайте только одно из них"),
    "twice": ("{field} is given twice: send each field once",
              "поле «{field}» задано дважды: передавайте каждое поле один раз"),
    "wrong": ("{field} holds a value of the wrong type", "поле «{field}» содержит значение "
              "не того типа"),
    "not_object": ("the body must be a JSON object", "тело запроса должно быть объектом JSON"),
    "not_utf8": ("the body is not UTF-8 text", "тело запроса — не текст в кодировке UTF-8"),
    "too_deep": ("the body is nested too deeply",
                 "в теле запроса слишком глубокая вложенность"),
    "not_json": ("the body is not JSON: {why} (line {line}, column {column})",
                 "тело запроса — не JSON (строка {line}, столбец {column})"),
    "long_number": ("the body holds a number of more than {digits} digits",
                    "в теле запроса есть число длиннее {digits} цифр"),
}
REQUEST_KINDS: dict[str, tuple[str, str]] = {
    "integer": ("an integer from {low} to {high}", "целым числом от {low} до {high}"),
    "integers": ("a list of integers from {low} to {high}",
                 "списком целых чисел от {low} до {high}"),
    "string": ("a string", "строкой"),
    "strings": ("a list of strings", "списком строк"),
    "base64": ("a base64 string", "строкой base64"),
    "base64s": ("a list of base64 strings", "списком строк base64"),
    "bool": ("true or false", "значением true или false"),
    "bools": ("a list of true or false values", "списком значений true или false"),
    "object": ("an object", "объектом"),
    "objects": ("a list of objects", "списком объектов"),
    "map": ("an object of strings", "объектом со строковыми значениями"),
    "text": ("text without an unpaired surrogate (\\ud800-\\udfff)",
             "текстом без непарных суррогатов (\\ud800-\\udfff)"),
    "value": ("a value of its type", "значением своего типа"),
    "values": ("a list of values of its type", "списком значений своего типа"),
}


def request_detail(rule: str, lang: str, params: Mapping[str, object]) -> str:
    """A line of REQUEST_DETAILS in ``lang`` (English for an unknown one), ``what`` in words."""
    i = LANGUAGES.index(lang) if lang in LANGUAGES else 0
    values = dict(params)
    kind = REQUEST_KINDS.get(str(values.get("what", "")))
    if kind is not None:
        values["what"] = kind[i].format(**values)
    return REQUEST_DETAILS[rule][i].format(**values)


def text(reason: str, lang: str, params: Mapping[str, object] | None = None,
         english: str | None = None) -> str:
    """The message for ``reason`` in ``lang``.

    ``english`` (the engine's specific message) wins for English and is the
    fallback when the table has no line for the reason.
    """
    if lang == "en" and english:
        return english
    pair = MESSAGES.get(reason)
    if pair is None:
        return english or reason
    template = pair[LANGUAGES.index(lang)] if lang in LANGUAGES else pair[0]
    try:
        return template.format(**(params or {}))
    except (KeyError, IndexError, ValueError):
        return english or pair[0]


def negotiate(header: str | None) -> str:
    """The best supported language of an ``Accept-Language`` value (English by default).

    >>> negotiate("ru-RU,ru;q=0.9,en;q=0.8")
    'ru'
    >>> negotiate("de, en;q=0.5, ru;q=0.4")
    'en'
    >>> negotiate(None)
    'en'
    """
    if not header:
        return DEFAULT_LANGUAGE
    best, best_q = DEFAULT_LANGUAGE, -1.0
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        lang = tag.strip().lower().split("-", 1)[0]
        q = 1.0
        for p in params.split(";"):
            name, _, value = p.strip().partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if lang in LANGUAGES and q > 0 and (q > best_q):
            best, best_q = lang, q - i * 1e-6
    return best
