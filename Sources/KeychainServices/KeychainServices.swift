// KeychainServices: implemented in the next step.
