"""allfives: All Fives dominoes played full-screen in the terminal (Textual)."""
