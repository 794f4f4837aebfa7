export const COMPARE_SECTION_TITLE = '## Before / after: alternating builds on SQLite';
