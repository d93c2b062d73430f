"""Each runtime's arithmetic as pure functions: ``ac``, ``oni``, ``redguard``, ``modern``."""
