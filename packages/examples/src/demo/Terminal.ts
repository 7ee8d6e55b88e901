/**
 * Where the demo writes: a sink (stdout, or memory for tests), colors, and a
 * spinner on the last line while the model works. Plain output — no colors,
 * no spinner — when the sink is not a terminal or `NO_COLOR` is set.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as Ansi from "./Ansi.js"

/** Where the output goes. */
export interface Sink {
  readonly write: (chunk: string) => void
  /** Colors and the spinner: only on a terminal. */
  readonly fancy: boolean
  /** The terminal's width, when known. */
  readonly columns: number | undefined
}

/** process.stdout: fancy on a TTY unless `NO_COLOR` is set (to anything but ""). */
export const stdout = (): Sink => {
  const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== ""
  return {
    write: (chunk) => void process.stdout.write(chunk),
    fancy: process.stdout.isTTY === true && !noColor,
    columns: process.stdout.isTTY === true ? process.stdout.columns : undefined
  }
}

/** A sink that keeps everything written, for tests. */
export const memory = (): Sink & { readonly text: () => string } => {
  const chunks: Array<string> = []
  return { write: (chunk) => void chunks.push(chunk), fancy: false, columns: undefined, text: () => chunks.join("") }
}

export class Terminal extends Context.Service<Terminal, {
  readonly style: Ansi.Style
  /** The usable width for a line. */
  readonly columns: number
  /** Prints whole lines (the spinner steps aside). Without text: ends a line in progress, or prints an empty one. */
  readonly line: (text?: string) => Effect.Effect<void>
  /** Prints part of a line (streamed text); the spinner waits until the line is finished. */
  readonly write: (text: string) => Effect.Effect<void>
  /** Shows the spinner with this label, or hides it. */
  readonly status: (label: string | undefined) => Effect.Effect<void>
}>()("@claude-effect/examples/demo/Terminal") {}

const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

export const make = (sink: Sink) =>
  Effect.gen(function*() {
    const style = Ansi.make(sink.fancy)
    let label: string | undefined
    let since = 0
    let frame = 0
    let spinnerShown = false
    let midLine = false

    const hideSpinner = () => {
      if (spinnerShown) sink.write(Ansi.clearLine)
      spinnerShown = false
    }
    const draw = () => {
      if (!sink.fancy || label === undefined || midLine) return
      frame = (frame + 1) % frames.length
      const seconds = ((Date.now() - since) / 1000).toFixed(1)
      sink.write(`${Ansi.clearLine}${style.magenta(frames[frame]!)} ${style.dim(`${label} ${seconds}s`)}`)
      spinnerShown = true
    }

    if (sink.fancy) {
      sink.write(Ansi.hideCursor)
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          hideSpinner()
          if (midLine) sink.write("\n")
          sink.write(Ansi.showCursor)
        })
      )
      yield* Effect.sync(draw).pipe(Effect.repeat(Schedule.spaced("80 millis")), Effect.forkScoped)
    }

    return Terminal.of({
      style,
      columns: Math.max(60, Math.min(sink.columns ?? 100, 120)),
      line: (text) =>
        Effect.sync(() => {
          hideSpinner()
          if (midLine) sink.write("\n")
          if (text !== undefined || !midLine) sink.write((text ?? "") + "\n")
          midLine = false
          draw()
        }),
      write: (text) =>
        Effect.sync(() => {
          if (text.length === 0) return
          hideSpinner()
          sink.write(text)
          midLine = !text.endsWith("\n")
        }),
      status: (next) =>
        Effect.sync(() => {
          if (next !== label) since = Date.now()
          label = next
          if (next === undefined) hideSpinner()
          else draw()
        })
    })
  })

export const layer = (sink: Sink): Layer.Layer<Terminal> => Layer.effect(Terminal, make(sink))
