/**
 * ANSI colors and cursor control, or none: a `Style` made with
 * `enabled: false` returns every string untouched.
 */

/** A function per color, and whether colors are on. */
export interface Style {
  readonly enabled: boolean
  readonly bold: (text: string) => string
  readonly dim: (text: string) => string
  readonly italic: (text: string) => string
  readonly red: (text: string) => string
  readonly green: (text: string) => string
  readonly yellow: (text: string) => string
  readonly blue: (text: string) => string
  readonly magenta: (text: string) => string
  readonly cyan: (text: string) => string
  readonly gray: (text: string) => string
}

const sgr = (enabled: boolean, open: number, close: number) => (text: string): string =>
  enabled && text.length > 0 ? `\x1b[${open}m${text}\x1b[${close}m` : text

export const make = (enabled: boolean): Style => ({
  enabled,
  bold: sgr(enabled, 1, 22),
  dim: sgr(enabled, 2, 22),
  italic: sgr(enabled, 3, 23),
  red: sgr(enabled, 31, 39),
  green: sgr(enabled, 32, 39),
  yellow: sgr(enabled, 33, 39),
  blue: sgr(enabled, 34, 39),
  magenta: sgr(enabled, 35, 39),
  cyan: sgr(enabled, 36, 39),
  gray: sgr(enabled, 90, 39)
})

/** Moves to the start of the line and clears it. */
export const clearLine = "\r\x1b[2K"
export const hideCursor = "\x1b[?25l"
export const showCursor = "\x1b[?25h"

// eslint-disable-next-line no-control-regex
const escapes = /\x1b\[[0-9;?]*[A-Za-z]/g

/** The text without escape sequences. */
export const strip = (text: string): string => text.replace(escapes, "")

/** The width of the text on screen (escape sequences take none). */
export const width = (text: string): number => Array.from(strip(text)).length

/** The text cut to `max` visible characters, with an ellipsis when cut. */
export const truncate = (text: string, max: number): string => {
  const chars = Array.from(text)
  return chars.length <= max ? text : chars.slice(0, Math.max(0, max - 1)).join("") + "…"
}
