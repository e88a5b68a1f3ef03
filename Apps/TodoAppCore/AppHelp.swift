/// The commands the app understands, for `help`.
enum AppHelp {
    static let text = """
        Commands (N is a row number as shown on screen):
          new                 open the New todo screen      save TITLE   add it      cancel   leave it
          back                go back                       tab todo|profile          switch tabs
          done N              toggle a todo                 edit N TITLE rename a todo
          delete N            delete a todo                 clear        delete every done todo
          filter all|active|done                            scroll up|down
          refresh             a new pet photo               fav          keep or drop it as a favourite
          name TEXT           set your name                 bio TEXT     set your bio
          tree                print the RIB tree            help         this list      quit
        """
}
