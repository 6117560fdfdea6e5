/** Bitset graphs on at most 12 vertices, their exact features, graph6, and enumeration. */
export * from './graph.js';
export * from './graph6.js';
export * from './structure.js';
export * from './cliques.js';
export * from './colouring.js';
export * from './features.js';
export * from './enumerate.js';
