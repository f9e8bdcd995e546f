// Hardhat 3 wants a config file beside its local installation; the node's chain comes from its flags.
export default {};
