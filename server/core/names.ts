/** Names used in paths and as roles: a letter, then letters, digits, `_` or `-`. */
export const namePattern = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** Slugs of definitions, codes, integrations, articles, questionnaires. */
export const slugPattern = /^[a-z0-9][a-z0-9-]{0,63}$/;
