// The bounds of a domain's code length, in a module of their own so that the schemas (which the web app
// reads for its types) need nothing of the server's.
export const CODE_LENGTH_MIN = 4;
export const CODE_LENGTH_MAX = 32;
