/**
 * The services a user handler captured where it was made (`McpServer.make`,
 * `ElicitationHandler.make`), without what belongs to the run that calls it.
 * In effect 4 the fiber references (log level, log annotations, the parent
 * span) and the scope are entries of the same Context: captured as they were
 * at `make`, they would replace the caller's at every call.
 *
 * @internal
 */
import * as Context from "effect/Context"
import * as References from "effect/References"
import * as Scope from "effect/Scope"
import * as Tracer from "effect/Tracer"

const runServices: ReadonlySet<string> = new Set([
  Scope.Scope.key,
  Tracer.ParentSpan.key,
  References.CurrentLogLevel.key,
  // The run's loggers: a session installs ones that hide its secrets (effect 3 kept loggers out of the Context).
  References.CurrentLoggers.key,
  References.CurrentLogAnnotations.key,
  References.CurrentLogSpans.key
])

/** The captured services a handler runs with (they win over the caller's). @internal */
export const capture = <R>(context: Context.Context<R>): Context.Context<never> => {
  const services = new Map<string, unknown>()
  for (const [key, value] of context.mapUnsafe) {
    if (!runServices.has(key)) services.set(key, value)
  }
  return Context.makeUnsafe(services)
}
