"""Everything on the wire: codec, envelopes and signatures, topics, commit-reveal, lockstep peers."""
