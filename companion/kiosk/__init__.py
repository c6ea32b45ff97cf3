"""The kiosk: the process `companion run` at the table, the journal's one writer.

daemon      the set-up of `companion run`: arguments, the config, the journal, the display,
            the inputs and the first game; then the loop runs
loop        one thread owns the state: keys in, effects carried out (the journal first), frames out
announce    Announce effects -> words in the table's language -> the announce log, voice, buzzer
recovery    a failure is contained and logged once; the failure screen, C takes a key back
crashguard  no crash loop: the start marker sets aside an action whose error kills every start
"""
