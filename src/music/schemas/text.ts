/** Text-field patterns shared by the music schemas (defined in core, where their wording is). */
export { LINE_PATTERN, TEXT_PATTERN, UUID_PATTERN } from '../../core/text-patterns.js';
