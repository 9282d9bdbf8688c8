// Rule options as a games' list gives them (the service's GET /v1/variants, the reference
// host's GET /api/variants: the same fields), read for a form. Pure functions, no DOM: the
// web table and the host's index page (examples/host/static/index.js) both draw with them.

/** The keyboard a phone shows for an integer option's text field: digits, unless the
 *  listing names words the option takes as well (`choices`: May I?'s max_buys_per_deal
 *  takes `none` and `unlimited`, which the digit keyboard cannot type). */
export const intInputMode = (spec) => (spec.choices?.length ? "text" : "numeric");
