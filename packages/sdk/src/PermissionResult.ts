/**
 * What a permission gate answers to `can_use_tool`.
 *
 * @since 0.1.0
 */
import type * as Protocol from "./Protocol.js"

/**
 * @since 0.1.0
 * @category Models
 */
export type PermissionResult = Protocol.PermissionResult

/**
 * Let the tool run, optionally with a rewritten input and with permission
 * updates (rules, mode, directories) the CLI applies from now on.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const allow = (options?: {
  readonly updatedInput?: Readonly<Record<string, unknown>> | undefined
  readonly updatedPermissions?: ReadonlyArray<Protocol.PermissionUpdate> | undefined
}): PermissionResult => ({
  behavior: "allow",
  ...(options?.updatedInput !== undefined ? { updatedInput: options.updatedInput } : {}),
  ...(options?.updatedPermissions !== undefined ? { updatedPermissions: options.updatedPermissions } : {})
})

/**
 * Refuse the tool call; the model gets `message`. With `interrupt`, the turn
 * stops as well.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const deny = (message: string, options?: { readonly interrupt?: boolean | undefined }): PermissionResult => ({
  behavior: "deny",
  message,
  ...(options?.interrupt !== undefined ? { interrupt: options.interrupt } : {})
})
