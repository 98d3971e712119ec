// Types for the two dependencies that ship none, limited to what deskhand calls.
declare module "gettext-parser" {
  export const mo: { parse(buffer: Buffer, defaultCharset?: string): unknown };
}
declare module "unicode-confusables" {
  const confusables: {
    /** Each character replaced by its UTS #39 prototype (confusables.txt); zero-width ones dropped. */
    rectifyConfusion(text: string): string;
  };
  export default confusables;
}
