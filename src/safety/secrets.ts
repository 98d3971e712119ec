// Values that look like credentials whoever typed them and wherever (an API key, an access token, a
// JWT, a card number), and fields named for a code: found in core/credentials.ts, under the replies
// that keep them out too (core/value.ts), and read here by the journal and the recordings.
export {
  credentialRanges,
  holdsCredential,
  mergeRanges,
  secretField,
  withMarkers,
} from "../core/credentials.js";
