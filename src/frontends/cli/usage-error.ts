// The error that means "the command line was wrong" (exit status 2): its own module, so that a
// command that needs no help text does not load the tool registry to throw it.
export class UsageError extends Error {
  override readonly name = "UsageError";
}
