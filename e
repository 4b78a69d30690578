nodemark: runs: option '--host' needs a value, not the option '--json' (a value that starts with -- is given as --host=--...)
