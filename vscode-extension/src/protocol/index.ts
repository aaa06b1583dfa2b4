export * from "./api";
export * from "./connection";
export * from "./methods";
export * from "./types";
export * from "./emitter";
